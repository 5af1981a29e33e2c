package org.fastflowj.stream;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.fastflowj.stream.internal.FrameWindowOperator;
import org.fastflowj.stream.internal.Joins;
import org.fastflowj.stream.internal.PanedWindowOperator;
import org.fastflowj.stream.internal.SessionWindowOperator;

/**
 * A windowed join of two streams, as Flink's: {@code left.join(right).where(leftKey).equalTo(rightKey)
 * .window(w).apply(f)} emits {@code f(l, r)} for every left record {@code l} and right record {@code r}
 * of the same key in the same window, when the window fires (at its {@code end - 1}, the time of the
 * results). Tumbling, sliding and session windows; a record whose windows all fired is late (counted in
 * {@link JobStats#lateRecords()}). Both inputs need event time; the join's watermark is the smaller of
 * theirs.
 *
 * @param <L> the left records' type
 * @param <R> the right records' type
 */
public final class JoinedStreams<L, R> {
    private final DataStream<L> left;
    private final DataStream<R> right;

    JoinedStreams(DataStream<L> left, DataStream<R> right) {
        this.left = left;
        this.right = right;
    }

    /** The left records' key. */
    public <K> Where<K> where(Function<? super L, ? extends K> leftKey) {
        return new Where<>(Objects.requireNonNull(leftKey, "leftKey"));
    }

    /** A join with the left key chosen. */
    public final class Where<K> {
        private final Function<? super L, ? extends K> leftKey;

        Where(Function<? super L, ? extends K> leftKey) {
            this.leftKey = leftKey;
        }

        /** The right records' key, equal to the left one for records that join. */
        public EqualTo equalTo(Function<? super R, ? extends K> rightKey) {
            return new EqualTo(Joins.key(leftKey, Objects.requireNonNull(rightKey, "rightKey")));
        }
    }

    /** A join with both keys chosen. */
    public final class EqualTo {
        private final Function<Object, Object> key;

        EqualTo(Function<Object, Object> key) {
            this.key = key;
        }

        public WithWindow window(Windows windows) {
            Objects.requireNonNull(windows, "windows");
            if (!windows.needsTime()) {
                throw new IllegalArgumentException("join window " + windows
                        + ": a join takes tumbling, sliding or session windows (in event time)");
            }
            left.requireTime("join", windows);
            right.requireTime("join", windows);
            return new WithWindow(key, windows);
        }
    }

    /** A join with its window, waiting for the function that makes a result of each pair. */
    public final class WithWindow {
        private final Function<Object, Object> key;
        private final Windows windows;

        WithWindow(Function<Object, Object> key, Windows windows) {
            this.key = key;
            this.windows = windows;
        }

        public <T> DataStream<T> apply(BiFunction<? super L, ? super R, ? extends T> function) {
            Objects.requireNonNull(function, "function");
            Windows w = windows;
            return left.joinWith(right, "join " + w, key, i -> switch (w.kind) {
                case SESSION -> new SessionWindowOperator(key, Joins.sides(), Joins.pairs(function), w.size, 0, null);
                default -> w.size == w.slide
                        ? new FrameWindowOperator(key, Joins.sides(), Joins.pairs(function), w.size, w.slide, 0, null)
                        : new PanedWindowOperator(key, Joins.sides(), Joins.pairs(function), w.size, w.slide, 0, null);
            });
        }
    }
}
