package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where tasks run when workers span groups (in one process here, every worker a thread of it, as a program
 * tested before it runs distributed): a task goes to the workers of the group that holds the current
 * version of what it writes, when one of them has room. How the farm holds such a task while they have
 * none, and lets another worker take it once nothing else waits: {@code OnDemandAffinityTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MacroDataFlowLocalityTest {
    /** Home group: worker 0; W1: worker 1; W2: workers 2 and 3. */
    private static final int[] GROUP_OF_WORKER = {-1, 0, 1, 1};

    /** Appends the number of the worker that runs it to its written list. */
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

    private static int firstInAWorkerGroup(List<Integer> ranOn) {
        for (int k = 0; k < ranOn.size(); k++) {
            if (GROUP_OF_WORKER[ranOn.get(k)] >= 0) {
                return k;
            }
        }
        return ranOn.size();
    }
}
