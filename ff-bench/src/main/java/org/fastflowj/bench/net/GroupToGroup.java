package org.fastflowj.bench.net;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.fastflowj.bench.FreePorts;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;
import org.fastflowj.dist.run.GroupRun;

/**
 * The FastFlow-J side of {@link NetThroughput}: a two-stage pipeline cut into two ff-dist groups, both
 * run in this JVM on loopback, each with its own transport (the same code path as two processes, minus
 * the process start).
 *
 * <pre>
 *   group S                                                       group R
 *   [source: payload × N] ─SPSC─▶ [ff-send-R: serialize, batch] ──TCP──▶ event loop ─▶ [ff-recv-S: deserialize]
 *                                          ▲        credits (ACKs)                  │          │ SPSC
 *                                          └──────────────────────────────────────────┘          ▼
 *                                                                                      [sink: count, checksum]
 * </pre>
 *
 * <p>The source sends the same array N times (no allocation per item, as the baseline); the receiver
 * deserializes each into a new array; the sink counts them and sums their first bytes. Serialization is
 * the default config ("Kryo": a {@code byte[]} without a custom serializer travels as its bytes, Kryo
 * is not called) or {@link ByteArraySerializer}. The
 * clock runs from the source's first item to the sink's {@code svcEnd} (after the last item's EOS), so
 * the group start-up (threads, listening, connecting, handshake) is not timed, as the baseline's
 * connect is not.
 *
 * <p>Threading: {@link #run} blocks its caller; the groups start on two threads of their own, because
 * {@link GroupRun#start} returns only once its peers are connected.
 */
public final class GroupToGroup {
    static final String SENDER_GROUP = "S";
    static final String RECEIVER_GROUP = "R";
    /** {@code -Dff.bench.printStats=true}: each group's node and link statistics on stderr, for profiling. */
    private static final boolean PRINT_STATS = Boolean.getBoolean("ff.bench.printStats");
    /** {@code -Dff.bench.waitStrategy=BLOCKING} (or BUSY_SPIN): the node threads' wait strategy; default: ff-core's. */
    private static final RunOptions OPTIONS = System.getProperty("ff.bench.waitStrategy") == null
            ? RunOptions.defaults()
            : RunOptions.defaults().waitStrategy(WaitStrategy.valueOf(System.getProperty("ff.bench.waitStrategy")));

    private GroupToGroup() {}

    /**
     * Kryo or the custom {@link ByteArraySerializer} for the payload; or PREBATCHED: the source itself packs
     * {@code batchSize} payloads into one array (int32 length + payload each, the baseline's frame layout)
     * and the sink unpacks each into a new array, one frame per packed array. That is the work of a
     * sender and a receiver moved into the edge nodes (FastFlow's serializing wrappers) with batching
     * there too, so nothing crosses an in-process channel per message: the bound of that design.
     * CHUNKED: the source emits arrays of {@code batchSize} references to the payload, which the sender
     * serializes element by element (the custom layout, one frame per array) and the receiver turns back
     * into arrays of new payloads, which the sink walks. Serialization stays on the bridge threads; only
     * the in-process hand-offs are per chunk: the bound of chunking the bridges' channels.
     */
    public enum Serialization {
        KRYO,
        CUSTOM,
        PREBATCHED,
        CHUNKED;

        SerializationConfig config() {
            if (this == KRYO) {
                return SerializationConfig.builder().build();
            }
            SerializationConfig.Builder builder =
                    SerializationConfig.builder().serializer(byte[].class, ByteArraySerializer.INSTANCE);
            return this == CHUNKED
                    ? builder.serializer(Object[].class, new ChunkSerializer()).build()
                    : builder.build();
        }
    }

    /** Moves {@code messages} payloads of {@code payloadBytes} from group S to group R. */
    public static Transfer run(
            int messages, int payloadBytes, int batchSize, int messageOTF, Serialization serialization)
            throws InterruptedException, TimeoutException, ExecutionException {
        return run(messages, payloadBytes, batchSize, messageOTF, serialization, null);
    }

    /**
     * As above; with {@code secretFileOrNull} the groups share that secret, and every frame carries a MAC
     * when the system property {@link DFF#SEAL_LOOPBACK_PROPERTY} is true ({@link SealedFramesCost}).
     */
    public static Transfer run(
            int messages,
            int payloadBytes,
            int batchSize,
            int messageOTF,
            Serialization serialization,
            String secretFileOrNull)
            throws InterruptedException, TimeoutException, ExecutionException {
        Source source =
                switch (serialization) {
                    case PREBATCHED -> new PackingSource(Payload.of(payloadBytes), messages, batchSize);
                    case CHUNKED -> new ChunkingSource(Payload.of(payloadBytes), messages, batchSize);
                    default -> new Source(Payload.of(payloadBytes), messages);
                };
        Sink sink =
                switch (serialization) {
                    case PREBATCHED -> new UnpackingSink();
                    case CHUNKED -> new UnchunkingSink();
                    default -> new Sink();
                };
        Pipeline program = new Pipeline(source, sink);
        source.createGroup(SENDER_GROUP);
        sink.createGroup(RECEIVER_GROUP);
        boolean oneFramePerItem = serialization == Serialization.PREBATCHED || serialization == Serialization.CHUNKED;
        DffConfig config = config(oneFramePerItem ? 1 : batchSize, messageOTF, secretFileOrNull);
        SerializationConfig serial = serialization.config();

        long timeoutSeconds = 60 + (long) messages * payloadBytes / 20_000_000L;
        runGroups(program, config, serial, timeoutSeconds, () -> sink.received + " of " + messages + " messages");
        if (sink.received != messages || sink.checksum != (long) messages * Payload.FIRST_BYTE) {
            throw new IllegalStateException("FastFlow-J: the sink read " + sink.received + " of " + messages
                    + " messages (checksum " + sink.checksum + ")");
        }
        return new Transfer(sink.received, payloadBytes, sink.endNanos - source.startNanos);
    }

    /**
     * Starts groups S and R of {@code program} in this JVM and waits for both to end; {@code progress} says
     * how far it got if they time out.
     */
    static void runGroups(
            Pipeline program,
            DffConfig config,
            SerializationConfig serial,
            long timeoutSeconds,
            Supplier<String> progress)
            throws InterruptedException, TimeoutException, ExecutionException {
        ExecutorService starters = Executors.newFixedThreadPool(2);
        List<Future<Execution>> starts = new ArrayList<>();
        try {
            for (String group : List.of(RECEIVER_GROUP, SENDER_GROUP)) {
                DFF.Settings settings = new DFF.Settings(group, config, serial, false);
                starts.add(starters.submit(() -> GroupRun.start(GraphCompiler.compile(program), OPTIONS, settings)));
            }
            for (Future<Execution> start : starts) {
                Execution execution = start.get(timeoutSeconds, TimeUnit.SECONDS);
                if (!execution.await(timeoutSeconds, TimeUnit.SECONDS)) {
                    execution.cancel();
                    throw new TimeoutException("FastFlow-J: " + progress.get() + " after " + timeoutSeconds + " s");
                }
                if (PRINT_STATS) {
                    System.err.println(execution.stats().toTable());
                }
            }
        } finally {
            starters.shutdownNow();
        }
    }

    static DffConfig config(int batchSize, int messageOTF) {
        return config(batchSize, messageOTF, null);
    }

    static DffConfig config(int batchSize, int messageOTF, String secretFileOrNull) {
        String secret = secretFileOrNull == null ? "" : "\"secretFile\": \"" + secretFileOrNull + "\",\n";
        String batch = batchSize == GroupConfig.AUTO_BATCH_SIZE ? "\"auto\"" : Integer.toString(batchSize);
        int[] ports = FreePorts.take(2);
        String json = "{ " + secret + "\"batchSize\": " + batch + ", \"messageOTF\": " + messageOTF + ",\n"
                + "  \"groups\": [\n"
                + "    { \"name\": \"" + SENDER_GROUP + "\", \"endpoint\": \"127.0.0.1:" + ports[0] + "\" },\n"
                + "    { \"name\": \"" + RECEIVER_GROUP + "\", \"endpoint\": \"127.0.0.1:" + ports[1] + "\" } ] }";
        return DffConfig.parse(json, "net-throughput.json");
    }

    /**
     * Emits the same payload {@code count} times, one per item; remembers when it emitted the first.
     * Subclasses put up to {@code perItem} payloads in one item ({@link #item}).
     */
    static class Source extends Node<Void, Object> {
        final byte[] payload;
        final int count;
        private final int perItem;
        private int sent;
        /** Written by the source's thread before its first item; read after the run ended. */
        volatile long startNanos;

        Source(byte[] payload, int count) {
            this(payload, count, 1);
        }

        Source(byte[] payload, int count, int perItem) {
            this.payload = payload;
            this.count = count;
            this.perItem = perItem;
        }

        @Override
        protected void svcInit() {
            startNanos = System.nanoTime();
        }

        @Override
        protected final Object svc(Void none) {
            if (sent == count) {
                return eos();
            }
            int payloads = Math.min(perItem, count - sent);
            sent += payloads;
            return item(payloads);
        }

        /** The next item, carrying {@code payloads} payloads (always 1 here). */
        Object item(int payloads) {
            return payload;
        }
    }

    /** Packs {@code perItem} payloads to an array (int32 length + payload each). */
    static final class PackingSource extends Source {
        PackingSource(byte[] payload, int count, int perItem) {
            super(payload, count, perItem);
        }

        @Override
        Object item(int payloads) {
            java.nio.ByteBuffer packed = java.nio.ByteBuffer.allocate(payloads * (Integer.BYTES + payload.length));
            for (int i = 0; i < payloads; i++) {
                packed.putInt(payload.length).put(payload);
            }
            return packed.array();
        }
    }

    /** Emits references to the payload in arrays of {@code perItem}. */
    static final class ChunkingSource extends Source {
        ChunkingSource(byte[] payload, int count, int perItem) {
            super(payload, count, perItem);
        }

        @Override
        Object item(int payloads) {
            Object[] chunk = new Object[payloads];
            java.util.Arrays.fill(chunk, payload);
            return chunk;
        }
    }

    /** The arrays of {@link ChunkingSource}: a count, then each payload as the custom serializer writes it. */
    static final class ChunkSerializer implements ItemSerializer<Object[]> {
        @Override
        public void write(Object[] chunk, WireOutput out) {
            out.writeInt(chunk.length);
            for (Object message : chunk) {
                byte[] bytes = (byte[]) message;
                out.writeInt(bytes.length);
                out.writeBytes(bytes, 0, bytes.length);
            }
        }

        @Override
        public Object[] read(WireInput in) {
            Object[] chunk = new Object[in.readInt()];
            for (int i = 0; i < chunk.length; i++) {
                byte[] bytes = new byte[in.readInt()];
                in.readBytes(bytes, 0, bytes.length);
                chunk[i] = bytes;
            }
            return chunk;
        }
    }

    /** Unpacks what {@link PackingSource} packed, each payload into a new array, and counts them. */
    static final class UnpackingSink extends Sink {
        @Override
        protected Void svc(Object packed) {
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap((byte[]) packed);
            while (in.hasRemaining()) {
                byte[] message = new byte[in.getInt()];
                in.get(message);
                super.svc(message);
            }
            return goOn();
        }
    }

    /** Counts the payloads of each array {@link ChunkSerializer} read. */
    static final class UnchunkingSink extends Sink {
        @Override
        protected Void svc(Object chunk) {
            for (Object message : (Object[]) chunk) {
                super.svc(message);
            }
            return goOn();
        }
    }

    /** Counts what arrives and sums the first bytes; remembers when the stream ended. */
    static class Sink extends Node<Object, Void> {
        /** Written by the sink's thread, read after the run ended (the thread join orders them). */
        volatile int received;

        volatile long checksum;
        volatile long firstNanos;
        volatile long endNanos;
        private int count;
        private long sum;

        @Override
        protected Void svc(Object item) {
            if (count++ == 0) {
                firstNanos = System.nanoTime();
            }
            sum += ((byte[]) item)[0];
            return goOn();
        }

        @Override
        protected void svcEnd() {
            endNanos = System.nanoTime();
            received = count;
            checksum = sum;
        }
    }
}
