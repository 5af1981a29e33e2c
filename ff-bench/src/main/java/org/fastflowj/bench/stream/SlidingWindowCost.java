package org.fastflowj.bench.stream;

import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.bench.AbstractBenchmark;
import org.fastflowj.stream.Aggregate;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.Windows;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Events per second through a keyed sliding window whose size is 10 or 1000 slides, the same events
 * and the same number of results in both: {@value #KEYS} keys, each with one event per 10 ms slide, so
 * every key's window fires at every slide whatever its size (one result per event). What changes with
 * size / slide is only what a firing has to combine.
 *
 * <pre>
 *   generator ─▶ withTimestamps ─▶ keyBy ─▶ sliding(size = ratio × 10 ms, 10 ms) ─▶ aggregate ─▶ count
 *   (one thread: every operator at parallelism 1 is fused)
 * </pre>
 *
 * <p>{@code counting} deducts, so each key keeps a running count (one pane in, one out per firing);
 * {@code maxBy} cannot, so each firing combines the window's panes: its cost per event grows with the
 * ratio, which is the bound the deducting path removes. The figure is {@code ratio 1000 / ratio 10} per
 * aggregate.
 */
@State(Scope.Benchmark)
public class SlidingWindowCost extends AbstractBenchmark {
    public static final int EVENTS = 1_000_000;
    static final int KEYS = 64;
    static final long SLIDE_MILLIS = 10;

    @Param({"10", "1000"})
    public int ratio;

    @Param({"counting", "maxBy"})
    public String aggregate;

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long slidingWindow() {
        return run(EVENTS, ratio, aggregate);
    }

    /** Runs the job over {@code events} events; returns the number of results (one per event, once warm). */
    public static long run(int events, int ratio, String aggregate) {
        AtomicLong results = new AtomicLong();
        Aggregate<Long, ?, ?> agg =
                switch (aggregate) {
                    case "counting" -> Aggregates.counting();
                    case "maxBy" -> Aggregates.maxBy(Comparator.<Long>naturalOrder());
                    default -> throw new IllegalArgumentException("aggregate " + aggregate + ": counting or maxBy");
                };
        StreamJob job = StreamJob.named("sliding-" + ratio);
        job.source(Sources.generator(events, 0, i -> i))
                // event i: key i % KEYS, in slide i / KEYS (each key once per slide, times ascending)
                .withTimestamps(i -> i / KEYS * SLIDE_MILLIS + i % KEYS * SLIDE_MILLIS / KEYS, Watermarks.ascending())
                .keyBy(i -> i % KEYS)
                .window(Windows.sliding(Duration.ofMillis(ratio * SLIDE_MILLIS), Duration.ofMillis(SLIDE_MILLIS)))
                .aggregate(agg)
                .sink(Sinks.forEach(r -> results.lazySet(results.get() + 1)));
        job.run();
        return results.get();
    }
}
