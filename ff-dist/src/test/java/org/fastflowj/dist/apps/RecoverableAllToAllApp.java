package org.fastflowj.dist.apps;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * An on-demand all-to-all for the recovery tests: a source feeds two L-Workers, which hand each task on
 * demand to four R-Workers; a sink takes the R-Workers' results. Group L holds the source, both L-Workers,
 * R-Worker 0 and the sink; R-Workers 1, 2 and 3 run in groups W1, W2 and W3.
 *
 * <p>Arguments after DFF's: {@code items}, {@code workMicros} per item in an R-Worker, {@code recoverable}
 * ({@code true}/{@code false}). Group L prints {@code progress} once a quarter of the results arrived and
 * {@code RESULT: ...} at the end: the tasks answered, the sum of their squares, and how many were answered
 * twice.
 */
public final class RecoverableAllToAllApp {
    static final List<String> GROUPS = List.of("L", "W1", "W2", "W3");

    private RecoverableAllToAllApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        String result = run(Integer.parseInt(args[0]), Long.parseLong(args[1]), Boolean.parseBoolean(args[2]));
        if (DFF.group().map("L"::equals).orElse(true)) {
            System.out.println("RESULT: " + result);
        }
    }

    /** Runs the program (in one process when no group is selected) and returns what group L computed. */
    static String run(int items, long workMicros, boolean recoverable) {
        StringBuilder out = new StringBuilder();
        List<Node<?, ?>> left = List.of(new Relay(), new Relay());
        List<Node<?, ?>> right =
                List.of(new Square(workMicros), new Square(workMicros), new Square(workMicros), new Square(workMicros));
        // tag::recoverable-a2a[]
        AllToAll a2a = new AllToAll().firstSet(left).secondSet(right).onDemand();
        if (recoverable) {
            a2a.recoverable();
        }
        Pipeline main = new Pipeline(new Tasks(items), a2a, new Results(items, out));
        main.createGroup("L");
        for (int j = 1; j < right.size(); j++) {
            a2a.createGroup("W" + j).include(right.get(j));
        }
        // end::recoverable-a2a[]
        main.runAndWaitEnd();
        return out.toString();
    }

    /** The tasks 0 to items - 1, a source. */
    static final class Tasks extends Node<Void, Long> {
        private final int items;

        Tasks(int items) {
            this.items = items;
        }

        @Override
        protected Long svc(Void none) {
            for (long task = 0; task < items; task++) {
                sendOut(task);
            }
            return eos();
        }
    }

    /** An L-Worker: hands each task on (to the R-Worker the on-demand dispatch picks). */
    static final class Relay extends Node<Long, Long> {
        @Override
        protected Long svc(Long task) {
            return task;
        }
    }

    /** An R-Worker: one result per task, the task and its square. */
    static final class Square extends Node<Long, long[]> {
        private final long workMicros;

        Square(long workMicros) {
            this.workMicros = workMicros;
        }

        @Override
        protected long[] svc(Long task) {
            if (workMicros > 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(workMicros)); // stands for computing
            }
            return new long[] {task, task * task};
        }
    }

    /** Takes each result (a task answered twice is counted); prints progress once a quarter arrived. */
    static final class Results extends MultiInputNode<long[], Void> {
        private final int items;
        private final StringBuilder out;
        private final BitSet answered = new BitSet();
        private int results;
        private long sum;
        private int duplicates;

        Results(int items, StringBuilder out) {
            this.items = items;
            this.out = out;
        }

        @Override
        protected Void svc(long[] result) {
            if (answered.get((int) result[0])) {
                duplicates++;
            }
            answered.set((int) result[0]);
            sum += result[1];
            if (++results == Math.max(1, items / 4)) {
                System.out.println("progress"); // the tests kill an R-Worker group once this line is out
                System.out.flush();
            }
            return goOn();
        }

        @Override
        protected void svcEnd() {
            out.append("tasks=")
                    .append(answered.cardinality())
                    .append(" results=")
                    .append(results)
                    .append(" sum=")
                    .append(sum)
                    .append(" duplicates=")
                    .append(duplicates);
        }
    }
}
