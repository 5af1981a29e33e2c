package org.fastflowj.dist.apps;

import java.util.BitSet;

/**
 * The results a recovery test app takes, each {@code {task, value}}: which tasks were answered, how many
 * results came (a task answered twice counts twice, and as a duplicate) and the values' sum. Prints
 * {@code progress} once a quarter of the tasks' results came: the tests kill a worker group then.
 *
 * <p>Threading: the node that takes the results.
 */
final class Answers {
    private final int items;
    private final BitSet answered = new BitSet();
    private int results;
    private long sum;
    private int duplicates;

    Answers(int items) {
        this.items = items;
    }

    void take(long[] result) {
        if (answered.get((int) result[0])) {
            duplicates++;
        }
        answered.set((int) result[0]);
        sum += result[1];
        progress(++results, items);
    }

    /** Prints {@code progress} when {@code results} reaches a quarter of {@code items}. */
    static void progress(int results, int items) {
        if (results == Math.max(1, items / 4)) {
            System.out.println("progress");
            System.out.flush();
        }
    }

    /** Every task has its answer. */
    boolean complete() {
        return answered.cardinality() == items;
    }

    /** {@code tasks=T results=R sum=S duplicates=D}, what the tests compare with a run without faults. */
    String describe() {
        return "tasks=" + answered.cardinality() + " results=" + results + " sum=" + sum + " duplicates=" + duplicates;
    }
}
