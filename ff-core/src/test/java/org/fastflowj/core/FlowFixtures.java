package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/** Small nodes shared by the farm, all-to-all and stress tests. */
final class FlowFixtures {
    private FlowFixtures() {}

    /** A source emitting {@code from .. to-1}, one item per {@code svc} call. */
    static Node<Void, Integer> range(int from, int to) {
        return new Range(from, to);
    }

    /** A source emitting {@code mapper(from) .. mapper(to-1)}. */
    static <T> Node<Void, T> generate(int from, int to, IntFunction<T> mapper) {
        return new Generate<>(from, to, mapper);
    }

    /** The integers {@code from .. to-1}. */
    static List<Integer> ints(int from, int to) {
        List<Integer> list = new ArrayList<>();
        for (int i = from; i < to; i++) {
            list.add(i);
        }
        return list;
    }

    /** Parks for {@code nanos}: simulated work inside a node. */
    static void work(long nanos) {
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }

    /** Burns a few CPU cycles; returns a value so the JIT keeps the loop. */
    static long spin(int iterations) {
        long x = iterations;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    private static final class Range extends Node<Void, Integer> {
        private final int to;
        private int next;

        Range(int from, int to) {
            this.next = from;
            this.to = to;
        }

        @Override
        protected Integer svc(Void none) {
            return next < to ? Integer.valueOf(next++) : eos();
        }
    }

    private static final class Generate<T> extends Node<Void, T> {
        private final int to;
        private final IntFunction<T> mapper;
        private int next;

        Generate(int from, int to, IntFunction<T> mapper) {
            this.next = from;
            this.to = to;
            this.mapper = mapper;
        }

        @Override
        protected T svc(Void none) {
            return next < to ? mapper.apply(next++) : eos();
        }
    }

    /** A sink keeping every item, in arrival order. */
    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = Collections.synchronizedList(new ArrayList<>());
        volatile int eosNotifications;

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosNotifications++;
        }
    }

    /** An item together with the input channel it arrived on. */
    record Arrival<T>(int channel, T item) {}

    /** A multi-input sink keeping every item with its channel, in arrival order. */
    static final class CollectByChannel<T> extends MultiInputNode<T, Void> {
        final List<Arrival<T>> arrivals = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> endedChannels = Collections.synchronizedList(new ArrayList<>());
        volatile int channels = -1;

        @Override
        protected Void svc(T item) {
            channels = inputChannels();
            arrivals.add(new Arrival<>(inputChannel(), item));
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            endedChannels.add(channel);
        }

        List<T> items() {
            synchronized (arrivals) {
                return arrivals.stream().map(Arrival::item).toList();
            }
        }
    }

    /** A worker recording what it saw; forwards {@code item} unchanged. */
    static final class Recorder<T> extends Node<T, T> {
        final List<T> seen = Collections.synchronizedList(new ArrayList<>());
        volatile int idSeen = -1;

        @Override
        protected T svc(T item) {
            idSeen = id();
            seen.add(item);
            return item;
        }
    }
}
