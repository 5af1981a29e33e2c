package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Small nodes shared by the ff-core behaviour tests: sources, sinks and thread bookkeeping. */
final class StreamFixtures {
    private StreamFixtures() {}

    /** A source emitting 0..count-1, then EOS. */
    static Node<Void, Integer> source(int count) {
        return new CountingSource(count);
    }

    /** A source that never ends by itself (emits 0, 1, 2, ... until the run stops it). */
    static Node<Void, Integer> infiniteSource() {
        return new CountingSource(Integer.MAX_VALUE);
    }

    static List<Integer> range(int count) {
        return IntStream.range(0, count).boxed().collect(Collectors.toList());
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

    static final class CountingSource extends Node<Void, Integer> {
        private final int count;
        private int next;

        CountingSource(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next < count ? Integer.valueOf(next++) : eos();
        }
    }

    /** A sink recording every item, its eosNotify calls and svcEnd calls. */
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
}
