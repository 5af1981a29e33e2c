package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where tasks run when workers span groups (in one process here, every worker a thread of it, as a program
 * tested before it runs distributed): a task goes to the workers of the group that holds the current
 * version of its objects, when one of them has room, and anywhere otherwise.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MacroDataFlowLocalityTest {
    /** Home group: worker 0; W1: worker 1; W2: workers 2 and 3. */
    private static final int[] GROUP_OF_WORKER = {-1, 0, 1, 1};

    /** Appends the number of the worker that runs it to its written list; reads its other parameters. */
    record Note() implements MacroDataFlow.Kernel {
        @Override
        @SuppressWarnings("unchecked")
        public void run(Object[] p) {
            String thread = Thread.currentThread().getName();
            ((List<Integer>) p[p.length - 1]).add(Integer.parseInt(thread.substring(thread.lastIndexOf("worker") + 6)));
        }
    }

    private static MacroDataFlow grouped() {
        return new MacroDataFlow(1).createGroup("S").addWorkerGroup("W1", 1).addWorkerGroup("W2", 2);
    }

    @Test
    void shouldRunAChainOfUpdatesOfOneObjectInTheWorkerGroupThatWroteIt() {
        List<Integer> ranOn = new ArrayList<>();
        try (MacroDataFlow mdf = grouped()) {
            mdf.run(g -> {
                for (int k = 0; k < 60; k++) {
                    g.add(new Note(), inout(ranOn)); // each waits for the one before: one task at a time
                }
            });
        }

        assertThat(ranOn).hasSize(60);
        int first = firstInAWorkerGroup(ranOn);
        assertThat(first)
                .as("tasks with no preference go round the workers: %s", ranOn)
                .isLessThan(4);
        int group = GROUP_OF_WORKER[ranOn.get(first)];
        for (int k = first; k < ranOn.size(); k++) {
            assertThat(GROUP_OF_WORKER[ranOn.get(k)])
                    .as("task %d of %s, after one ran in worker group %d", k, ranOn, group)
                    .isEqualTo(group);
        }
    }

    @Test
    void shouldRunATaskThatReadsWhatAWorkerGroupHoldsInThatGroup() {
        List<Integer> wrote = Collections.synchronizedList(new ArrayList<>());
        List<Integer> readers = new ArrayList<>();
        try (MacroDataFlow mdf = grouped()) {
            mdf.run(g -> {
                for (int k = 0; k < 4; k++) {
                    g.add(new Note(), inout(wrote)); // until a worker group holds the list's version
                }
                for (int k = 0; k < 20; k++) {
                    g.add(new Note(), in(wrote), inout(readers)); // reads it, and chains on readers
                }
            });
        }

        int group = GROUP_OF_WORKER[wrote.get(wrote.size() - 1)];
        assertThat(group).as("the last writer ran in a worker group: %s", wrote).isNotNegative();
        for (int k = 0; k < readers.size(); k++) {
            assertThat(GROUP_OF_WORKER[readers.get(k)])
                    .as("reader %d of %s, the list written last in group %d", k, readers, group)
                    .isEqualTo(group);
        }
    }

    private static int firstInAWorkerGroup(List<Integer> ranOn) {
        for (int k = 0; k < ranOn.size(); k++) {
            if (GROUP_OF_WORKER[ranOn.get(k)] >= 0) {
                return k;
            }
        }
        return ranOn.size();
    }
}
