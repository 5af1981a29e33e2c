package org.fastflowj.dist.apps;

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
 *
 * <p>For the tests that kill an R-Worker group at a chosen stage of an item's trip, the environment
 * variable {@value #STAGE} of a group's process stops that group there and prints {@code STAGE: <stage>}
 * ({@link Stage}); the test then kills it (or, for {@code sink-held}, the sink in group L waits a moment with
 * the results it was handed, while the test kills an R-Worker group).
 */
public final class RecoverableAllToAllApp {
    static final List<String> GROUPS = List.of("L", "W1", "W2", "W3");
    /** The environment variable that names the {@link Stage} a group's process stops at. */
    static final String STAGE = "A2A_STAGE";
    /** The R-Worker's item at which the mid-run stages stop it. */
    static final int STAGE_ITEM = 10;

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
        Stage stage = Stage.of(System.getenv(STAGE));
        List<Node<?, ?>> right = List.of(
                new StagedSquare(workMicros, stage),
                new StagedSquare(workMicros, stage),
                new StagedSquare(workMicros, stage),
                new StagedSquare(workMicros, stage));
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

    /**
     * Where a group's process stops, for a test to kill an R-Worker group there (null: nowhere). Each stops
     * only the nodes that run in that process: an R-Worker in its own group, the sink in group L.
     */
    enum Stage {
        /** The R-Worker stops inside its {@link #STAGE_ITEM}-th item: items queued for it and on the wire. */
        IN_WORKER("in-worker"),
        /** The R-Worker answers its {@link #STAGE_ITEM}-th item, then stops before the next: a result on its way. */
        AFTER_ANSWER("after-answer"),
        /** The R-Worker answered every item and sent its end; its group stops before its part ends. */
        ANSWERED_ALL("answered-all"),
        /** The sink in group L stops for a while at a quarter of the results, with results handed to it. */
        SINK_HELD("sink-held");

        final String id;

        Stage(String id) {
            this.id = id;
        }

        static Stage of(String id) {
            for (Stage s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            return null;
        }

        /** Tells the test, then stops this thread for good (the process is killed) or for {@code millis}. */
        void reached(long millis) {
            System.out.println("STAGE: " + id);
            System.out.flush();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }
    }

    /** An R-Worker: {@link RecoverableFarmApp.Square}, stopping at its {@link Stage}, if any. */
    static final class StagedSquare extends Node<Long, long[]> {
        private final RecoverableFarmApp.Square square;
        private final Stage stage;
        private int taken;

        StagedSquare(long workMicros, Stage stage) {
            this.square = new RecoverableFarmApp.Square(workMicros);
            this.stage = stage;
        }

        @Override
        protected long[] svc(Long task) {
            taken++;
            if ((stage == Stage.IN_WORKER && taken == STAGE_ITEM)
                    || (stage == Stage.AFTER_ANSWER && taken == STAGE_ITEM + 1)) {
                stage.reached(Long.MAX_VALUE);
            }
            return square.svc(task);
        }

        @Override
        protected void svcEnd() {
            if (stage == Stage.ANSWERED_ALL) {
                stage.reached(Long.MAX_VALUE); // after its EOS: every output went
            }
        }
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
        private final int items;
        private final Stage stage;
        private int taken;

        Results(int items, StringBuilder out) {
            this.answers = new Answers(items);
            this.out = out;
            this.items = items;
            this.stage = Stage.of(System.getenv(STAGE));
        }

        @Override
        protected Void svc(long[] result) {
            answers.take(result);
            if (stage == Stage.SINK_HELD && ++taken == items / 4) {
                stage.reached(2000); // the results keep coming to its channels meanwhile
            }
            return goOn();
        }

        @Override
        protected void svcEnd() {
            out.append(answers.describe());
        }
    }
}
