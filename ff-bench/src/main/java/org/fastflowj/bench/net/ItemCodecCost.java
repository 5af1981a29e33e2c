package org.fastflowj.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.fastflowj.bench.AbstractBenchmark;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.serial.ItemCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The serialization share of {@link NetThroughput}'s per-message cost, on one thread and without the
 * network: a batch of {@code itemsPerBatch} payloads written by one codec into one buffer, then read
 * back by another, as a sender and a receiver do. Mode: ns per batch (128 items of 8 B, or one of
 * 64 KiB), each item written and read.
 *
 * <pre>
 *   serialization  DEFAULT: the default SerializationConfig (NetThroughput's "FF-J Kryo")
 *                  CUSTOM:  ByteArraySerializer registered for byte[] ("FF-J custom")
 *   buffer         HEAP (a batch up to 64 KiB: BatchWriter's and FrameDecoder's choice) or DIRECT
 * </pre>
 *
 * <p>Run: {@code java -jar ff-bench/target/benchmarks.jar ItemCodecCost -f 1 -wi 2 -i 3}. The codec's
 * public API is stable, so the same benchmark runs against another build's ff-dist classes put first
 * on the class path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ItemCodecCost extends AbstractBenchmark {
    /** The payload size in bytes: NetThroughput's two cells. */
    @Param({"8", "65536"})
    public int payloadBytes;

    @Param({"DEFAULT", "CUSTOM"})
    public String serialization;

    @Param({"HEAP", "DIRECT"})
    public String buffer;

    private byte[] payload;
    private int itemsPerBatch;
    private ItemCodec writer;
    private ItemCodec reader;
    private ByteBuf batch;
    /** Summed over the first byte of every array read, so nothing read is dead code. */
    private long checksum;

    @Setup(Level.Trial)
    public void setUp() {
        payload = Payload.of(payloadBytes);
        itemsPerBatch = payloadBytes >= 1024 ? 1 : 128;
        SerializationConfig config = "CUSTOM".equals(serialization)
                ? SerializationConfig.builder()
                        .serializer(byte[].class, ByteArraySerializer.INSTANCE)
                        .build()
                : SerializationConfig.builder().build();
        writer = new ItemCodec(config);
        reader = new ItemCodec(config);
        int capacity = itemsPerBatch * (payloadBytes + 16);
        batch = "DIRECT".equals(buffer) ? Unpooled.directBuffer(capacity) : Unpooled.buffer(capacity);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batch.release();
        if (checksum == 0) {
            throw new IllegalStateException("nothing was read");
        }
    }

    /** One batch written and read; the score divided by the items per batch is the cost per item. */
    @Benchmark
    public long writeAndReadBatch() {
        batch.clear();
        writer.startBatch();
        for (int i = 0; i < itemsPerBatch; i++) {
            writer.write(payload, batch);
        }
        reader.startBatch();
        long sum = 0;
        for (int i = 0; i < itemsPerBatch; i++) {
            sum += ((byte[]) reader.read(batch))[0];
        }
        checksum += sum;
        return sum;
    }
}
