package org.fastflowj.bench.nexmark;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a run's results end, whatever the engine: every engine's sink instances call {@link #record} (all
 * engines run in this JVM). For {@link Query#Q1_BOUND} it first does q1's work on the event. It counts the results, and per {@link Mode} also sums a hash of each result's
 * canonical line (an order-independent digest: equal digests, equal result multisets) or records each
 * window result's event-time latency.
 */
public final class Tally {
    /** What the sink does with a result. */
    public enum Mode {
        COUNT,
        DIGEST,
        LATENCY
    }

    private static final ConcurrentHashMap<String, Tally> RUNS = new ConcurrentHashMap<>();

    private final RunSpec spec;
    private final LongAdder count = new LongAdder();
    private final LongAdder digest = new LongAdder();
    private long[] latencies = new long[1024];
    private long[] windowEnds = new long[1024];
    private int latencyCount;

    private Tally(RunSpec spec) {
        this.spec = spec;
    }

    public static Tally open(RunSpec spec) {
        Tally t = new Tally(spec);
        if (RUNS.putIfAbsent(spec.id(), t) != null) {
            throw new IllegalStateException("NEXMark run id '" + spec.id() + "' is already in use");
        }
        return t;
    }

    public static Tally of(String runId) {
        Tally t = RUNS.get(runId);
        if (t == null) {
            throw new IllegalStateException("NEXMark: no open run '" + runId + "'");
        }
        return t;
    }

    /** Forgets the run (its tally and its wall-clock start). */
    public void close() {
        RUNS.remove(spec.id());
        Slice.forget(spec.id());
    }

    public void record(Object result) {
        if (spec.query() == Query.Q1_BOUND) {
            if (!(result instanceof Event.Bid bid)) {
                return;
            }
            result = Results.inEuros(bid);
        }
        count.increment();
        switch (spec.mode()) {
            case COUNT -> {}
            case DIGEST -> digest.add(hash(result.toString()));
            case LATENCY -> {
                if (result instanceof Results.Windowed w) {
                    latency(w.end(), System.nanoTime() - Slice.wallNanosOf(spec, w.end()));
                }
            }
        }
    }

    private synchronized void latency(long end, long nanos) {
        if (latencyCount == latencies.length) {
            latencies = Arrays.copyOf(latencies, latencyCount * 2);
            windowEnds = Arrays.copyOf(windowEnds, latencyCount * 2);
        }
        windowEnds[latencyCount] = end;
        latencies[latencyCount++] = nanos;
    }

    public long count() {
        return count.sum();
    }

    /** Count and digest, e.g. {@code 1234/5f3a...}: equal for equal multisets of result lines. */
    public String digest() {
        return count.sum() + "/" + Long.toHexString(digest.sum());
    }

    /** The recorded latencies in ns, ascending. */
    public synchronized long[] latencies() {
        long[] sorted = Arrays.copyOf(latencies, latencyCount);
        Arrays.sort(sorted);
        return sorted;
    }

    /**
     * The latencies in ns, ascending, of the windows whose end falls between events {@code fromEvent} and
     * {@code toEvent} of the run.
     */
    public synchronized long[] steadyLatencies(long fromEvent, long toEvent) {
        NexmarkGenerator generator = spec.generator();
        long from = generator.timestamp(fromEvent);
        long to = generator.timestamp(toEvent);
        long[] kept = new long[latencyCount];
        int n = 0;
        for (int i = 0; i < latencyCount; i++) {
            if (windowEnds[i] >= from && windowEnds[i] <= to) {
                kept[n++] = latencies[i];
            }
        }
        long[] sorted = Arrays.copyOf(kept, n);
        Arrays.sort(sorted);
        return sorted;
    }

    /** A 64-bit hash of the line's UTF-8 bytes (FNV-1a, then a finalizing mix so sums spread well). */
    static long hash(String line) {
        long h = 0xcbf29ce484222325L;
        for (byte b : line.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
