package org.fastflowj.bench.net;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.SerializationConfig;

/**
 * Latency of a slow stream: a source emits a timestamp every {@code --gapMicros} (default 2000), a sink
 * records how long each took to arrive; once as a one-process pipeline, once cut into two groups on
 * loopback (as {@link GroupToGroup}, default wait strategy, {@code batchSize} 32). A slow stream is what
 * batching and parking threads can hurt: a partial batch waits for {@code flushDelayMicros}, and a
 * consumer that parked wakes on its producer's signal or its park time-out (1 ms under BACKOFF when
 * threads outnumber cores).
 *
 * <pre>
 *   java -cp ff-bench/target/benchmarks.jar org.fastflowj.bench.net.TrickleLatency [--items 300] [--gapMicros 2000]
 *       [--batch 32]     (0: "auto")
 * </pre>
 *
 * <p>Prints median, 90th percentile and maximum in microseconds, the first tenth of the items left out
 * (warm-up).
 */
public final class TrickleLatency {
    private TrickleLatency() {}

    /** Arrival delays in nanoseconds, sorted, warm-up left out. */
    record Delays(long[] sortedNanos) {
        double percentileMicros(int p) {
            int i = Math.min(sortedNanos.length - 1, sortedNanos.length * p / 100);
            return sortedNanos[i] / 1e3;
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "p50 %.0f us, p90 %.0f us, max %.0f us (%d items)",
                    percentileMicros(50),
                    percentileMicros(90),
                    sortedNanos[sortedNanos.length - 1] / 1e3,
                    sortedNanos.length);
        }
    }

    /** Emits {@code items} timestamps, {@code gapMicros} apart. */
    static final class Ticker extends Node<Void, Long> {
        private final int items;
        private final long gapMicros;
        private int sent;

        Ticker(int items, long gapMicros) {
            this.items = items;
            this.gapMicros = gapMicros;
        }

        @Override
        protected Long svc(Void none) throws InterruptedException {
            if (sent++ == items) {
                return eos();
            }
            TimeUnit.MICROSECONDS.sleep(gapMicros);
            return System.nanoTime();
        }
    }

    /** Records each timestamp's age on arrival. */
    static final class Recorder extends Node<Long, Void> {
        final long[] delays;
        int received;

        Recorder(int items) {
            this.delays = new long[items];
        }

        @Override
        protected Void svc(Long sentAt) {
            delays[received++] = System.nanoTime() - sentAt;
            return goOn();
        }

        Delays result() {
            long[] kept = Arrays.copyOfRange(delays, received / 10, received);
            Arrays.sort(kept);
            return new Delays(kept);
        }
    }

    static Delays oneProcess(int items, long gapMicros) {
        Recorder sink = new Recorder(items);
        new Pipeline(new Ticker(items, gapMicros), sink).runAndWaitEnd();
        return checked(sink, items);
    }

    static Delays twoGroups(int items, long gapMicros) throws Exception {
        return twoGroups(items, gapMicros, 32);
    }

    static Delays twoGroups(int items, long gapMicros, int batchSize) throws Exception {
        Ticker source = new Ticker(items, gapMicros);
        Recorder sink = new Recorder(items);
        Pipeline program = new Pipeline(source, sink);
        source.createGroup(GroupToGroup.SENDER_GROUP);
        sink.createGroup(GroupToGroup.RECEIVER_GROUP);
        long timeoutSeconds = 60 + items * gapMicros / 1_000_000;
        GroupToGroup.runGroups(
                program,
                GroupToGroup.config(batchSize, 64),
                SerializationConfig.builder().build(),
                timeoutSeconds,
                () -> sink.received + " of " + items + " items");
        return checked(sink, items);
    }

    private static Delays checked(Recorder sink, int items) {
        if (sink.received != items) {
            throw new IllegalStateException("the sink got " + sink.received + " of " + items + " items");
        }
        return sink.result();
    }

    public static void main(String[] args) throws Exception {
        NetThroughput.Args options = new NetThroughput.Args(args);
        int items = options.intValue("--items", 300);
        long gapMicros = options.intValue("--gapMicros", 2000);
        System.out.println("one process: " + oneProcess(items, gapMicros));
        int batchSize = options.intValue("--batch", 32);
        String batch = batchSize == 0 ? "auto" : Integer.toString(batchSize);
        System.out.println("two groups, batchSize " + batch + ": " + twoGroups(items, gapMicros, batchSize));
    }
}
