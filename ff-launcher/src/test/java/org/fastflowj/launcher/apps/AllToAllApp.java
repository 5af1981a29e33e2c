package org.fastflowj.launcher.apps;

import java.util.BitSet;
import java.util.List;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A recoverable on-demand all-to-all for the launcher's tests: the source, both L-Workers, R-Worker 0 and
 * the sink in group A, R-Worker 1 in B, R-Worker 2 in C. Arguments after DFF's: {@code tasks}, {@code
 * workMicros} per task. Group A prints {@code progress} once a quarter of the results arrived and {@code
 * tasks=<n> sum=<sum>} at the end ({@link MasterWorkerApp#expected}).
 */
public final class AllToAllApp {
    private AllToAllApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        int tasks = Integer.parseInt(args[0]);
        long workMicros = Long.parseLong(args[1]);
        List<Node<Long, long[]>> right = List.of(
                new MasterWorkerApp.Square(workMicros),
                new MasterWorkerApp.Square(workMicros),
                new MasterWorkerApp.Square(workMicros));
        AllToAll a2a = new AllToAll()
                .firstSet(Node.<Long, Long>of(t -> t), Node.<Long, Long>of(t -> t))
                .secondSet(right)
                .onDemand()
                .recoverable();
        Sink sink = new Sink(tasks);
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, tasks).boxed().iterator());
        Pipeline main = new Pipeline(source, a2a, sink);
        main.createGroup("A");
        a2a.createGroup("B").include(right.get(1));
        a2a.createGroup("C").include(right.get(2));
        main.runAndWaitEnd();
        if (DFF.group().map("A"::equals).orElse(true)) {
            System.out.println(
                    "tasks=" + sink.answered.cardinality() + " sum=" + sink.sum + " results=" + sink.results);
        }
    }

    static final class Sink extends MultiInputNode<long[], Void> {
        private final int tasks;
        final BitSet answered = new BitSet();
        long sum;
        int results;

        Sink(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Void svc(long[] result) {
            answered.set((int) result[0]);
            sum += result[1];
            if (++results == tasks / 4) {
                System.out.println("progress");
                System.out.flush();
            }
            return goOn();
        }
    }

    /** The line group A prints when each of {@code tasks} tasks was answered exactly once. */
    public static String expected(int tasks) {
        return MasterWorkerApp.expected(tasks) + " results=" + tasks;
    }
}
