package org.fastflowj.bench.nexmark;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One source instance's events: {@code instance, instance + instances, ...} below the run's count (those
 * of one {@link Kind}, if it is not {@code ALL}). When
 * the run is paced, event {@code n} is due {@code n / wallRate} seconds after the run's start (the first
 * instance to open sets it), so the instances together keep the rate and event time maps to wall-clock
 * time ({@link #wallNanosOf}).
 */
public final class Slice {
    /** Which events a source makes: all, or only one kind (for the queries that read two streams). */
    public enum Kind {
        ALL,
        PERSONS,
        AUCTIONS;

        boolean wants(long n) {
            long offset = n % NexmarkGenerator.PROPORTION_DENOMINATOR;
            return switch (this) {
                case ALL -> true;
                case PERSONS -> offset < NexmarkGenerator.PERSON_PROPORTION;
                case AUCTIONS -> offset >= NexmarkGenerator.PERSON_PROPORTION
                        && offset < NexmarkGenerator.PERSON_PROPORTION + NexmarkGenerator.AUCTION_PROPORTION;
            };
        }
    }

    private static final ConcurrentHashMap<String, Long> STARTS = new ConcurrentHashMap<>();

    private final NexmarkGenerator generator;
    private final long count;
    private final int step;
    private final double nanosPerEvent;
    private final long start;
    private final Kind kind;
    private long next;

    Slice(RunSpec spec, int instance, int instances, Kind kind) {
        this.generator = spec.generator();
        this.count = spec.events();
        this.step = instances;
        this.next = instance;
        this.nanosPerEvent = spec.wallRate() > 0 ? 1e9 / spec.wallRate() : 0;
        this.start = nanosPerEvent > 0 ? startNanos(spec.id()) : 0;
        this.kind = kind;
        skipUnwanted();
    }

    private void skipUnwanted() {
        while (next < count && !kind.wants(next)) {
            next += step;
        }
    }

    static long startNanos(String runId) {
        return STARTS.computeIfAbsent(runId, id -> System.nanoTime());
    }

    /** The wall-clock time ({@code System.nanoTime()}) at which event time {@code millis} is due. */
    static long wallNanosOf(RunSpec spec, long millis) {
        return startNanos(spec.id()) + (long) (millis / 1000.0 * spec.eventTimeRate() / spec.wallRate() * 1e9);
    }

    static void forget(String runId) {
        STARTS.remove(runId);
    }

    /** The number of the next event this slice makes (or the count, at its end). */
    public long position() {
        return next;
    }

    /** Moves to a {@link #position} of a slice of the same run, instance and kind. */
    public void seek(long position) {
        if (position < 0 || position % step != next % step && position < count) {
            throw new IllegalArgumentException("position " + position + " is not one of this slice's events");
        }
        next = position;
        skipUnwanted();
    }

    public boolean hasNext() {
        return next < count;
    }

    /** Nanoseconds until the next event is due (0 or less: now). */
    public long nanosUntilNext() {
        return nanosPerEvent > 0 ? start + (long) (next * nanosPerEvent) - System.nanoTime() : 0;
    }

    public long nextTimestamp() {
        return generator.timestamp(next);
    }

    public Event next() {
        Event e = generator.event(next);
        next += step;
        skipUnwanted();
        return e;
    }
}
