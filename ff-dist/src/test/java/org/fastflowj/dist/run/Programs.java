package org.fastflowj.dist.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Small programs that record what their nodes saw (ids, channel numbers and counts, eosNotify calls,
 * results), so a distributed run can be compared with a one-process run of a fresh copy.
 */
public final class Programs {
    private Programs() {}

    /** What one run's nodes saw; thread-safe, since nodes of several groups share it in one JVM. */
    public static final class Trace {
        final Map<String, List<String>> events = new ConcurrentSkipListMap<>();
        final Map<Long, Long> results = new ConcurrentSkipListMap<>();
        final AtomicLong sum = new AtomicLong();

        void event(String node, String what) {
            events.computeIfAbsent(node, k -> new CopyOnWriteArrayList<>()).add(what);
        }
    }

    /** Emits 0..count-1, round-robin over its outputs (by sendOutTo when it has several). */
    public static final class Source extends MultiOutputNode<Void, Long> {
        private final long count;
        private long next;

        public Source(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            if (next == count) {
                return eos();
            }
            long item = next++;
            sendOutTo(item, (int) (item % outputChannels()));
            return goOn();
        }
    }

    /** L-Worker: multiplies by 10 and sends each item to R-Worker {@code item % outputs} (by key). */
    static final class ByKey extends MultiOutputNode<Long, Long> {
        private final Trace trace;
        private final String name;

        ByKey(Trace trace, String name) {
            this.trace = trace;
            this.name = name;
        }

        @Override
        protected void svcInit() {
            trace.event(name, "id=" + id() + " outputs=" + outputChannels());
        }

        @Override
        protected Long svc(Long item) {
            sendOutTo(item * 10, (int) (item % outputChannels()));
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            trace.event(name, "eos " + channel);
        }
    }

    /** R-Worker: records which input channel each item came from (counts), adds 1, passes it on. */
    static final class Counting extends MultiInputNode<Long, Long> {
        private final Trace trace;
        private final String name;
        private final long[] perChannel = new long[16];

        Counting(Trace trace, String name) {
            this.trace = trace;
            this.name = name;
        }

        @Override
        protected void svcInit() {
            trace.event(name, "id=" + id() + " inputs=" + inputChannels());
        }

        @Override
        protected Long svc(Long item) {
            perChannel[inputChannel()]++;
            return item + 1;
        }

        @Override
        protected void eosNotify(int channel) {
            trace.event(name, "eos " + channel + " after " + perChannel[channel]);
        }
    }

    /** Sink: records every result and each channel's EOS. */
    public static final class Sink extends MultiInputNode<Long, Void> {
        private final Trace trace;

        public Sink(Trace trace) {
            this.trace = trace;
        }

        @Override
        protected void svcInit() {
            trace.event("sink", "id=" + id() + " inputs=" + inputChannels());
        }

        @Override
        protected Void svc(Long item) {
            trace.results.merge(item, 1L, Long::sum);
            trace.sum.addAndGet(item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            trace.event("sink", "eos " + channel);
        }

        @Override
        protected void svcEnd() {
            trace.event("sink", "end");
        }
    }

    /** The paper's Fig. 5: source, a 2x4 all-to-all split in two inter-set groups, sink. */
    static Pipeline figureFive(Trace trace, long items, boolean grouped) {
        Node<Void, Long> source = new Source(items);
        List<Node<Long, Long>> l = List.of(new ByKey(trace, "L0"), new ByKey(trace, "L1"));
        List<Node<Long, Long>> r = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            r.add(new Counting(trace, "R" + i));
        }
        AllToAll a2a = new AllToAll().firstSet(l.get(0), l.get(1)).secondSet(r.get(0), r.get(1), r.get(2), r.get(3));
        Node<Long, Void> sink = new Sink(trace);
        Pipeline pipe = new Pipeline(source, a2a, sink);
        if (grouped) {
            source.createGroup("G1");
            a2a.createGroup("G2").include(l.get(0)).include(r.get(0)).include(r.get(1));
            a2a.createGroup("G3").include(l.get(1)).include(r.get(2)).include(r.get(3));
            sink.createGroup("G4");
        }
        return pipe;
    }

    /** Word counts, per R-Worker, merged at the end. */
    static final Map<String, Long> WORDS = new ConcurrentHashMap<>();
}
