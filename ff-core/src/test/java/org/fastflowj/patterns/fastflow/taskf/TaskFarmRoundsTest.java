package org.fastflowj.patterns.fastflow.taskf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.fastflowj.patterns.ParallelFor;
import org.fastflowj.patterns.TaskFarm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_taskf.cpp: a task farm runs tasks 1–3 up to a barrier, then 4–5, 6–8
 * and 9–10 in rounds of their own; a ParallelFor with more workers than cores then runs 100 small loops
 * (K = 4500), and the task farm, idle meanwhile, runs tasks 1–100 in one more round.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskFarmRoundsTest {

    @Test
    void shouldRunEachRoundsTasksOnceBeforeItsBarrierAndStayUsableAcrossAParallelFor() {
        int workers = Runtime.getRuntime().availableProcessors();
        ConcurrentLinkedQueue<Long> executed = new ConcurrentLinkedQueue<>();
        try (TaskFarm taskf = new TaskFarm(workers)) {
            for (long[] round : new long[][] {{1, 3}, {4, 5}, {6, 8}, {9, 10}}) {
                for (long e = round[0]; e <= round[1]; e++) {
                    long task = e;
                    taskf.addTask(() -> executed.add(task));
                }
                taskf.waitAll();
                assertThat(drain(executed)).isEqualTo(range(round[0], round[1]));
            }

            AtomicLong k = new AtomicLong();
            try (ParallelFor pf = new ParallelFor(workers + 4)) {
                for (int i = 1; i <= 100; i++) {
                    pf.parallelFor(0, 10, 1, 1, k::addAndGet);
                }
            }
            assertThat(k.get()).isEqualTo(4500);

            for (long i = 1; i <= 100; i++) {
                long task = i;
                taskf.addTask(() -> executed.add(task));
            }
            taskf.waitAll();
            List<Long> last = List.copyOf(executed);
            assertThat(last).hasSize(100);
            assertThat(Set.copyOf(last)).isEqualTo(range(1, 100));
        }
    }

    private static Set<Long> drain(ConcurrentLinkedQueue<Long> executed) {
        List<Long> all = List.copyOf(executed);
        executed.clear();
        assertThat(all).doesNotHaveDuplicates();
        return Set.copyOf(all);
    }

    private static Set<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toSet());
    }
}
