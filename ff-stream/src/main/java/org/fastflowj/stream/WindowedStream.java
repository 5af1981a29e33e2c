package org.fastflowj.stream;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.fastflowj.stream.internal.CountWindowOperator;
import org.fastflowj.stream.internal.Exchange;
import org.fastflowj.stream.internal.FrameWindowOperator;
import org.fastflowj.stream.internal.Operator;
import org.fastflowj.stream.internal.PanedWindowOperator;
import org.fastflowj.stream.internal.Partial;
import org.fastflowj.stream.internal.PartialAggregateOperator;
import org.fastflowj.stream.internal.SessionWindowOperator;
import org.fastflowj.stream.internal.SideSink;
import org.fastflowj.stream.internal.WindowEmitter;
import org.fastflowj.stream.internal.WindowOperator;

/**
 * A keyed stream (or, from {@link DataStream#windowAll}, all records as one key) cut into windows,
 * waiting for its aggregation. A window fires when the watermark
 * reaches its {@code end - 1}; with an allowed lateness {@code L}, a record whose window has {@code end
 * - 1 + L <= watermark} is late (counted in {@link JobStats#lateRecords()}, and sent to {@link #lateTo}
 * if set), and a record within the lateness makes its fired window fire again with the updated result.
 * At the end of a bounded stream every open window fires.
 *
 * @param <K> the key's type
 * @param <T> the records' type
 */
public final class WindowedStream<K, T> {
    private final KeyedStream<K, T> keyed;
    private final Windows windows;
    private long latenessMillis;
    private SideSink<?> lateSink;
    private final boolean all;

    WindowedStream(KeyedStream<K, T> keyed, Windows windows) {
        this(keyed, windows, false);
    }

    /** {@code all}: the windows of {@link DataStream#windowAll}, one instance for every record. */
    WindowedStream(KeyedStream<K, T> keyed, Windows windows, boolean all) {
        this.keyed = keyed;
        this.windows = windows;
        this.all = all;
    }

    public WindowedStream<K, T> allowedLateness(Duration lateness) {
        long millis = Objects.requireNonNull(lateness, "lateness").toMillis();
        if (millis < 0 || !windows.needsTime()) {
            throw new IllegalArgumentException("allowedLateness(" + lateness + ") on " + windows
                    + ": needs an event-time window and a lateness >= 0");
        }
        this.latenessMillis = millis;
        return this;
    }

    /** Sends the late records to {@code sink}, written with the stream's records by its sink's node. */
    public WindowedStream<K, T> lateTo(Sink<? super T> sink) {
        this.lateSink = keyed.input.job.sideSink(Objects.requireNonNull(sink, "sink"));
        return this;
    }

    /** One {@link WindowResult} per key and window. */
    public <R> DataStream<WindowResult<K, R>> aggregate(Aggregate<? super T, ?, R> aggregate) {
        Objects.requireNonNull(aggregate, "aggregate");
        return build(aggregate, WindowEmitter.results());
    }

    public DataStream<WindowResult<K, T>> reduce(BinaryOperator<T> f) {
        return aggregate(Aggregates.reducing(Objects.requireNonNull(f, "f")));
    }

    /** All of each window's records at once. */
    public <R> DataStream<R> apply(WindowFunction<K, T, R> function) {
        Objects.requireNonNull(function, "function");
        Aggregate<T, List<T>, List<T>> all = Aggregates.toList();
        return build(all, WindowEmitter.applying(function));
    }

    private <R> DataStream<R> build(Aggregate<?, ?, ?> aggregate, WindowEmitter emitter) {
        long lateness = latenessMillis;
        SideSink<?> late = lateSink;
        DataStream<T> input = keyed.input;
        // A window of all records keys them alike, by one key object; its results carry no key.
        Function<? super T, ?> key = all ? record -> ALL : keyed.key;
        WindowEmitter emits = all ? WindowEmitter.withoutKey(emitter) : emitter;
        IntFunction<Operator> instances = i -> operator(key, aggregate, emits, lateness, late);
        String name = all ? "all " + windows : windows.toString();
        DataStream<R> window;
        if (windows.aggregatesInTwoStages()) {
            DataStream<Object> partials = input.firstStage(
                    i -> new PartialAggregateOperator(key, aggregate, windows.size, windows.slide, lateness));
            window = partials.then(name, Exchange.keyed(Partial.keyOr(key)), instances, true);
            window.transform.firstStage(partials.transform);
        } else {
            window = input.then(name, Exchange.keyed(key), instances, input.timed);
        }
        if (all) {
            window.transform.oneInstance("a windowAll");
        }
        if (late != null) {
            window.transform.lateSink(late);
        }
        return window;
    }

    /** The key of every record of a {@link DataStream#windowAll}. */
    private static final String ALL = "all";

    private Operator operator(
            Function<?, ?> key, Aggregate<?, ?, ?> aggregate, WindowEmitter emitter, long lateness, SideSink<?> late) {
        WindowOperator operator =
                switch (windows.kind) {
                    case SLIDING -> FrameWindowOperator.handles(windows.size, windows.slide, aggregate)
                            ? new FrameWindowOperator(
                                    key, aggregate, emitter, windows.size, windows.slide, lateness, late)
                            : new PanedWindowOperator(
                                    key, aggregate, emitter, windows.size, windows.slide, lateness, late);
                    case SESSION -> new SessionWindowOperator(key, aggregate, emitter, windows.size, lateness, late);
                    case COUNT -> new CountWindowOperator(key, aggregate, emitter, windows.size);
                };
        if (windows.processingTime) {
            operator.inProcessingTime();
        }
        return operator;
    }
}
