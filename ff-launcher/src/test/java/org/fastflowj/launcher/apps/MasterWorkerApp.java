package org.fastflowj.launcher.apps;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.dist.DFF;

/**
 * A recoverable master-worker farm for the launcher's tests: the master and worker 0 in group A, worker 1
 * in B, worker 2 in C. Arguments after DFF's: {@code tasks}, {@code workMicros} per task. Group A prints
 * {@code progress} once a quarter of the results came back and {@code tasks=<n> sum=<sum>} at the end.
 */
public final class MasterWorkerApp {
    private MasterWorkerApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        int tasks = Integer.parseInt(args[0]);
        long workMicros = Long.parseLong(args[1]);
        List<Node<Long, long[]>> workers =
                List.of(new Square(workMicros), new Square(workMicros), new Square(workMicros));
        Master master = new Master(tasks);
        Farm farm = Farm.of(workers).emitter(master).wrapAround().recoverable();
        farm.createGroup("A");
        farm.createGroup("B").include(workers.get(1));
        farm.createGroup("C").include(workers.get(2));
        farm.runAndWaitEnd();
        if (DFF.group().map("A"::equals).orElse(true)) {
            System.out.println("tasks=" + master.answered.cardinality() + " sum=" + master.sum);
        }
    }

    /** The expected line of {@code tasks} tasks. */
    public static String expected(int tasks) {
        long sum = 0;
        for (long t = 0; t < tasks; t++) {
            sum += t * t;
        }
        return "tasks=" + tasks + " sum=" + sum;
    }

    static final class Master extends Node<long[], Long> {
        private final int tasks;
        final BitSet answered = new BitSet();
        long sum;
        private int results;

        Master(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(long[] result) {
            if (result == null) {
                for (long t = 0; t < tasks; t++) {
                    sendOut(t);
                }
                return goOn();
            }
            if (!answered.get((int) result[0])) { // a task answered twice would show in the count of results
                sum += result[1];
            }
            answered.set((int) result[0]);
            if (++results == tasks / 4) {
                System.out.println("progress");
                System.out.flush();
            }
            return results == tasks ? eos() : goOn();
        }
    }

    static final class Square extends Node<Long, long[]> {
        private final long workMicros;

        Square(long workMicros) {
            this.workMicros = workMicros;
        }

        @Override
        protected long[] svc(Long task) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(workMicros)); // stands for computing
            return new long[] {task, task * task};
        }
    }
}
