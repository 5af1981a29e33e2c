package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;
import org.junit.jupiter.api.Timeout;

/**
 * Arbitrary bytes as the items of a batch, read as a receiver reads them: item after item until the bytes
 * end or one is refused. A refusal is a {@link CorruptFrameException} or a {@link ClassNotAllowedException}
 * that leaves the reader index where it was, never another exception; and reading allocates a bounded
 * multiple of the input, never the gigabytes a garbage length could ask for.
 *
 * <p>The first input byte picks a heap or a direct buffer (a receiver gets both). In a normal build this
 * replays the inputs in {@code ItemCodecFuzzTestInputs/}; {@code fuzz.sh} fuzzes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ItemCodecFuzzTest {
    /**
     * What reading may allocate besides a multiple of the input: a fresh Kryo after each refusal (its class
     * tables, a few hundred KiB), the exception and its message. A garbage length honoured would take far more.
     */
    private static final long FIXED_ALLOCATION_BYTES = 4L << 20;
    /** Kryo's objects take several times the bytes they were read from (headers, boxing, table growth). */
    private static final long ALLOCATION_PER_INPUT_BYTE = 256;

    record Point(int x, int y) {}

    /** A well-behaved user serializer, so that custom-tag items are reached too. */
    static final class Label {
        final byte[] text;

        Label(byte[] text) {
            this.text = text;
        }
    }

    static final class LabelSerializer implements ItemSerializer<Label> {
        @Override
        public void write(Label label, WireOutput out) {
            out.writeInt(label.text.length);
            out.writeBytes(label.text, 0, label.text.length);
        }

        @Override
        public Label read(WireInput in) {
            int length = in.readInt();
            if (length < 0 || length > in.readableBytes()) {
                throw new IllegalArgumentException("label of " + length + " bytes");
            }
            byte[] text = new byte[length];
            in.readBytes(text, 0, length);
            return new Label(text);
        }
    }

    private static final SerializationConfig CONFIG = SerializationConfig.builder()
            .register(Point.class)
            .serializer(Label.class, new LabelSerializer())
            .build();

    private final ItemCodec codec = new ItemCodec(CONFIG);

    @FuzzTest(maxDuration = "5m")
    void shouldReadItemsOrRefuseTheBatchCleanly(FuzzedDataProvider data) {
        boolean direct = (data.consumeByte() & 1) == 1;
        byte[] bytes = data.consumeRemainingAsBytes();
        // Measured the second time: the first loads (and, while fuzzing, instruments) the classes the bytes
        // name, which allocates on this thread too, once per class.
        readBatch(bytes, direct);
        long before = allocatedBytes();
        readBatch(bytes, direct);
        assertThat(allocatedBytes() - before)
                .as("bytes allocated reading %d input bytes", bytes.length)
                .isLessThan(FIXED_ALLOCATION_BYTES + ALLOCATION_PER_INPUT_BYTE * bytes.length);
    }

    /** Reads items until the bytes end or one is refused, as a receiver reads a batch. */
    private void readBatch(byte[] bytes, boolean direct) {
        ByteBuf batch = direct ? Unpooled.directBuffer(bytes.length) : Unpooled.buffer(bytes.length);
        batch.writeBytes(bytes);
        try {
            codec.startBatch();
            while (batch.isReadable()) {
                int start = batch.readerIndex();
                try {
                    codec.read(batch);
                    assertThat(batch.readerIndex())
                            .as("an item read consumes bytes")
                            .isGreaterThan(start);
                } catch (CorruptFrameException | ClassNotAllowedException refused) {
                    rethrowFuzzerFinding(refused);
                    assertThat(refused.getMessage()).isNotBlank();
                    assertThat(batch.readerIndex())
                            .as("a refused item leaves the reader index")
                            .isEqualTo(start);
                    return;
                }
            }
        } finally {
            batch.release();
        }
    }

    /**
     * The codec turns every exception into a refusal, also the fuzzer's sanitizer findings (a class loaded by
     * name, a reflective call): hand those back to the fuzzer.
     */
    private static void rethrowFuzzerFinding(Throwable refused) {
        for (Throwable t = refused; t != null && t.getCause() != t; t = t.getCause()) {
            if (t.getClass().getName().startsWith("com.code_intelligence.jazzer.")) {
                throw new AssertionError("the fuzzer's sanitizer reported " + t, t);
            }
        }
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
