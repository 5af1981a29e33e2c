package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * The pieces of a join: the operator that tags a side's records, the key of a tagged record, and the
 * windowed join as a window aggregate whose accumulator holds both sides' records and whose result is
 * their pairs (so it runs on the window operators, panes and lateness included).
 */
public final class Joins {
    private Joins() {}

    public static Operator tag(int side) {
        return new Operator() {
            @Override
            public void processRecord(Object value, long timestamp) {
                out.emit(new Tagged(side, value), timestamp);
            }
        };
    }

    @SuppressWarnings("unchecked")
    public static Function<Object, Object> key(Function<?, ?> left, Function<?, ?> right) {
        Function<Object, Object> l = (Function<Object, Object>) left;
        Function<Object, Object> r = (Function<Object, Object>) right;
        return record -> {
            Tagged tagged = (Tagged) record;
            return tagged.side == 0 ? l.apply(tagged.value) : r.apply(tagged.value);
        };
    }

    /** Both sides' records of one window (or pane, or session) of one key, in arrival order per side. */
    static final class Sides {
        final List<Object> left = new ArrayList<>();
        final List<Object> right = new ArrayList<>();
    }

    public static Aggregate<Object, Sides, Sides> sides() {
        return new Aggregate<>() {
            @Override
            public Sides create() {
                return new Sides();
            }

            @Override
            public Sides add(Sides sides, Object record) {
                Tagged tagged = (Tagged) record;
                (tagged.side == 0 ? sides.left : sides.right).add(tagged.value);
                return sides;
            }

            @Override
            public Sides combine(Sides sides, Sides other) {
                sides.left.addAll(other.left);
                sides.right.addAll(other.right);
                return sides;
            }

            @Override
            public Sides result(Sides sides) {
                return sides;
            }
        };
    }

    /** Emits {@code f(l, r)} for every pair of the window's left and right records, at the window's end - 1. */
    @SuppressWarnings("unchecked")
    public static WindowEmitter pairs(BiFunction<?, ?, ?> function) {
        BiFunction<Object, Object, Object> f = (BiFunction<Object, Object, Object>) function;
        return (key, start, end, result, timestamp, out) -> {
            Sides sides = (Sides) result;
            for (Object l : sides.left) {
                for (Object r : sides.right) {
                    Object joined = f.apply(l, r);
                    if (joined == null) {
                        throw new NullPointerException("the join function returned null for " + l + " and " + r);
                    }
                    out.emit(joined, timestamp);
                }
            }
        };
    }
}
