package org.fastflowj.examples.fig5;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * The application of Fig. 5 of the 2022 paper: a multi-output source, a 2x4 all-to-all, a multi-input
 * sink, cut into four groups.
 *
 * <pre>
 *            G2: L0 ──┬──▶ R0, R1 ──┐
 *   G1: Sk ──┤    ╲ ╱ │             ├──▶ Sc :G4
 *            G3: L1 ──┴──▶ R2, R3 ──┘
 * </pre>
 *
 * The source sends the numbers {@code 0..items-1} alternately to the L-Workers, which pass them on
 * round-robin; each R-Worker tags what it saw with its index ({@code item * 8 + r}), so the sink can
 * count the items per R-Worker and check that each number arrived exactly once.
 */
public final class Fig5 {
    static final int L_WORKERS = 2;
    static final int R_WORKERS = 4;

    private Fig5() {}

    /** The tree with its groups G1..G4; the sink prints its report to {@code out} when it ends. */
    public static Pipeline build(long items, PrintStream out) {
        List<Node<Long, Long>> l = new ArrayList<>();
        for (int i = 0; i < L_WORKERS; i++) {
            l.add(Node.of((Long x) -> x));
        }
        List<Node<Long, Long>> r = new ArrayList<>();
        for (int j = 0; j < R_WORKERS; j++) {
            r.add(new Tag());
        }
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r);
        Source source = new Source(items);
        Sink sink = new Sink(items, out);
        Pipeline pipe = new Pipeline(source, a2a, sink);
        source.createGroup("G1");
        a2a.createGroup("G2").include(l.get(0)).include(r.get(0)).include(r.get(1));
        a2a.createGroup("G3").include(l.get(1)).include(r.get(2)).include(r.get(3));
        sink.createGroup("G4");
        return pipe;
    }

    /** Sk: the numbers {@code 0..items-1}, item {@code i} to L-Worker {@code i % 2}. */
    static final class Source extends MultiOutputNode<Void, Long> {
        private final long items;

        Source(long items) {
            this.items = items;
        }

        @Override
        protected Long svc(Void none) {
            int channels = outputChannels();
            for (long i = 0; i < items; i++) {
                sendOutTo(i, (int) (i % channels));
            }
            return eos();
        }
    }

    /** R-Worker: tags each item with its own index in the second set. */
    static final class Tag extends Node<Long, Long> {
        @Override
        protected Long svc(Long x) {
            return x * 8 + id();
        }
    }

    /** Sc: counts the items per R-Worker and checks each number came exactly once; reports at the end. */
    static final class Sink extends MultiInputNode<Long, Void> {
        private final long items;
        private final PrintStream out;
        private final long[] perWorker = new long[R_WORKERS];
        private final BitSet seen = new BitSet();
        private long duplicated;
        private long outOfRange;

        Sink(long items, PrintStream out) {
            this.items = items;
            this.out = out;
        }

        @Override
        protected Void svc(Long tagged) {
            long x = tagged >>> 3;
            perWorker[(int) (tagged & 7)]++;
            if (x >= items) {
                outOfRange++;
            } else if (seen.get((int) x)) {
                duplicated++;
            } else {
                seen.set((int) x);
            }
            return goOn();
        }

        @Override
        protected void svcEnd() {
            long total = 0;
            for (int j = 0; j < R_WORKERS; j++) {
                out.println("R" + j + ": " + perWorker[j] + " items");
                total += perWorker[j];
            }
            long lost = items - seen.cardinality();
            out.println("total: " + total + " items (sent " + items + ", lost " + lost + ", duplicated "
                    + (duplicated + outOfRange) + ")");
            out.flush();
        }
    }
}
