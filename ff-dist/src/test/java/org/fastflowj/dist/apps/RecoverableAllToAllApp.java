package org.fastflowj.dist.apps;

import java.util.List;
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
        List<Node<?, ?>> right = List.of(
                new RecoverableFarmApp.Square(workMicros),
                new RecoverableFarmApp.Square(workMicros),
                new RecoverableFarmApp.Square(workMicros),
                new RecoverableFarmApp.Square(workMicros));
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

    /** Takes each result (a task answered twice is counted); prints progress once a quarter arrived. */
    static final class Results extends MultiInputNode<long[], Void> {
        private final Answers answers;
        private final StringBuilder out;

        Results(int items, StringBuilder out) {
            this.answers = new Answers(items);
            this.out = out;
        }

        @Override
        protected Void svc(long[] result) {
            answers.take(result);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            out.append(answers.describe());
        }
    }
}
