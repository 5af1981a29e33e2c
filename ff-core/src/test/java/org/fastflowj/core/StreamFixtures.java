package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * Small nodes and helpers shared by the ff-core behaviour tests: sources, sinks, integer lists,
 * simulated work and thread bookkeeping.
 */
final class StreamFixtures {
    private StreamFixtures() {}

    /** A source emitting {@code 0 .. count-1}, one item per {@code svc} call, then EOS. */
    static Node<Void, Integer> source(int count) {
        return source(0, count);
    }

    /** A source emitting {@code from .. to-1}, one item per {@code svc} call, then EOS. */
    static Node<Void, Integer> source(int from, int to) {
        return generate(from, to, Integer::valueOf);
    }

    /** A source that never ends by itself (emits 0, 1, 2, ... until the run stops it). */
    static Node<Void, Integer> infiniteSource() {
        return source(0, Integer.MAX_VALUE);
    }

    /** A source emitting {@code mapper(from) .. mapper(to-1)}, then EOS. */
    static <T> Node<Void, T> generate(int from, int to, IntFunction<T> mapper) {
        return new Generate<>(from, to, mapper);
    }

    /** The integers {@code 0 .. count-1}, in a new mutable list. */
    static List<Integer> ints(int count) {
        return ints(0, count);
    }

    /** The integers {@code from .. to-1}, in a new mutable list. */
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

    /** Live threads whose name starts with "ff-", i.e. node threads of any run. */
    static Set<Thread> liveNodeThreads() {
        Set<Thread> live = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("ff-") && t.isAlive()) {
                live.add(t);
            }
        }
        return live;
    }

    /** Node threads alive now that were not in {@code before}. */
    static Set<Thread> nodeThreadsStartedSince(Set<Thread> before) {
        Set<Thread> now = liveNodeThreads();
        now.removeAll(before);
        return now;
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

    /** A sink recording every item in arrival order, its eosNotify calls and svcEnd calls. */
    static final class Sink<T> extends Node<T, Void> {
        final List<T> items = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> eosChannels = Collections.synchronizedList(new ArrayList<>());
        volatile int svcEndCalls;
        volatile String threadName;

        @Override
        protected void svcInit() {
            threadName = Thread.currentThread().getName();
        }

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosChannels.add(channel);
        }

        @Override
        protected void svcEnd() {
            svcEndCalls++;
        }

        List<T> snapshot() {
            synchronized (items) {
                return new ArrayList<>(items);
            }
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
