package org.fastflowj.stream;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.fastflowj.stream.internal.LongSum;

/** Ready-made aggregations for windows and rolling keyed aggregates. */
public final class Aggregates {
    private Aggregates() {}

    /** From its four functions; see {@link Aggregate} for what each may modify. */
    public static <T, A, R> Aggregate<T, A, R> of(
            Supplier<A> create, BiFunction<A, ? super T, A> add, BinaryOperator<A> combine, Function<A, R> result) {
        return build(create, add, combine, result, null);
    }

    /**
     * From its four functions and {@code deduct}, which takes a combined accumulator back out (so sliding
     * windows keep a running result; see {@link Aggregate#deduct}).
     */
    public static <T, A, R> Aggregate<T, A, R> of(
            Supplier<A> create,
            BiFunction<A, ? super T, A> add,
            BinaryOperator<A> combine,
            Function<A, R> result,
            BinaryOperator<A> deduct) {
        return build(create, add, combine, result, Objects.requireNonNull(deduct, "deduct"));
    }

    private static <T, A, R> Aggregate<T, A, R> build(
            Supplier<A> create,
            BiFunction<A, ? super T, A> add,
            BinaryOperator<A> combine,
            Function<A, R> result,
            BinaryOperator<A> deduct) {
        Objects.requireNonNull(create, "create");
        Objects.requireNonNull(add, "add");
        Objects.requireNonNull(combine, "combine");
        Objects.requireNonNull(result, "result");
        return new Aggregate<>() {
            @Override
            public A create() {
                return create.get();
            }

            @Override
            public A add(A accumulator, T value) {
                return add.apply(accumulator, value);
            }

            @Override
            public A combine(A accumulator, A other) {
                return combine.apply(accumulator, other);
            }

            @Override
            public R result(A accumulator) {
                return result.apply(accumulator);
            }

            @Override
            public boolean canDeduct() {
                return deduct != null;
            }

            @Override
            public A deduct(A accumulator, A other) {
                if (deduct == null) {
                    return Aggregate.super.deduct(accumulator, other);
                }
                return deduct.apply(accumulator, other);
            }
        };
    }

    /** The number of records (deducts). */
    public static <T> Aggregate<T, long[], Long> counting() {
        return summingLong(value -> 1L);
    }

    /** The sum of {@code f} over the records (deducts). */
    public static <T> Aggregate<T, long[], Long> summingLong(ToLongFunction<? super T> f) {
        return new LongSum<>(f);
    }

    /**
     * The sum of {@code f} over the records. It does not deduct: taking a double back out of a running
     * sum is not exact, so a sliding window combines its panes.
     */
    public static <T> Aggregate<T, double[], Double> summingDouble(ToDoubleFunction<? super T> f) {
        return of(
                () -> new double[1],
                (a, v) -> {
                    a[0] += f.applyAsDouble(v);
                    return a;
                },
                (a, b) -> {
                    a[0] += b[0];
                    return a;
                },
                a -> a[0]);
    }

    /** The mean of {@code f} over the records (NaN for none); like {@link #summingDouble}, no deduct. */
    public static <T> Aggregate<T, double[], Double> averaging(ToDoubleFunction<? super T> f) {
        return of(
                () -> new double[2],
                (a, v) -> {
                    a[0] += f.applyAsDouble(v);
                    a[1]++;
                    return a;
                },
                (a, b) -> {
                    a[0] += b[0];
                    a[1] += b[1];
                    return a;
                },
                a -> a[0] / a[1]);
    }

    /** The least record by {@code order} (the first of equals), or null for none. */
    public static <T> Aggregate<T, List<T>, T> minBy(Comparator<? super T> order) {
        Objects.requireNonNull(order, "order");
        BinaryOperator<T> least = (a, b) -> order.compare(b, a) < 0 ? b : a;
        return reducing(least);
    }

    /** The greatest record by {@code order} (the first of equals), or null for none. */
    public static <T> Aggregate<T, List<T>, T> maxBy(Comparator<? super T> order) {
        Objects.requireNonNull(order, "order");
        BinaryOperator<T> greatest = (a, b) -> order.compare(b, a) > 0 ? b : a;
        return reducing(greatest);
    }

    /** The records reduced by {@code f} in arrival order, or null for none. */
    public static <T> Aggregate<T, List<T>, T> reducing(BinaryOperator<T> f) {
        Objects.requireNonNull(f, "f");
        BiFunction<List<T>, T, List<T>> add = (a, v) -> {
            if (a.isEmpty()) {
                a.add(v);
            } else {
                a.set(0, f.apply(a.get(0), v));
            }
            return a;
        };
        return of(
                ArrayList::new,
                add,
                (a, b) -> b.isEmpty() ? a : add.apply(a, b.get(0)),
                a -> a.isEmpty() ? null : a.get(0));
    }

    /** The {@code n} greatest records by {@code order}, greatest first. */
    public static <T> Aggregate<T, PriorityQueue<T>, List<T>> topN(int n, Comparator<? super T> order) {
        if (n <= 0) {
            throw new IllegalArgumentException("topN(" + n + "): n must be positive");
        }
        Objects.requireNonNull(order, "order");
        return of(
                () -> new PriorityQueue<T>(order),
                (q, v) -> {
                    q.add(v);
                    if (q.size() > n) {
                        q.poll();
                    }
                    return q;
                },
                (q, other) -> {
                    for (T v : other) {
                        q.add(v);
                        if (q.size() > n) {
                            q.poll();
                        }
                    }
                    return q;
                },
                q -> {
                    List<T> top = new ArrayList<>(q);
                    top.sort(order.reversed());
                    return top;
                });
    }

    /** Every record, in arrival order (panes and sessions in time order). */
    public static <T> Aggregate<T, List<T>, List<T>> toList() {
        return of(
                ArrayList::new,
                (a, v) -> {
                    a.add(v);
                    return a;
                },
                (a, b) -> {
                    a.addAll(b);
                    return a;
                },
                List::copyOf);
    }
}
