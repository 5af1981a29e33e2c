package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_dt.cpp: an on-demand master-worker farm whose emitter starts 4 tasks
 * and, for each task t that comes back, sends t%4 new ones (t+1 .. t+t%4) while t+t%4 &lt;= maxtasks, and
 * ends (returns NULL) once no task is left in flight; every task generated comes back exactly once.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MasterWorkerTaskTreeTest {
    private static final int MAXTASKS = 40;
    private static final int FIRST_K = 4;

    /** The tasks the emitter makes out of task t when it comes back (the last one re-uses t's memory in C++). */
    private static List<Integer> children(int t) {
        int r = t % 4;
        List<Integer> next = new ArrayList<>();
        if (r != 0 && t + r <= MAXTASKS) {
            for (int i = 1; i <= r; i++) {
                next.add(t + i);
            }
        }
        return next;
    }

    /** How many times each value is generated: the same tree, walked sequentially. */
    private static long[] expectedHistogram() {
        long[] histogram = new long[MAXTASKS + 1];
        Deque<Integer> todo = new ArrayDeque<>();
        for (int i = 0; i < FIRST_K; i++) {
            todo.push(i);
        }
        while (!todo.isEmpty()) {
            int t = todo.pop();
            histogram[t]++;
            children(t).forEach(todo::push);
        }
        return histogram;
    }

    static final class Emitter extends Node<Integer, Integer> {
        private int ntask;
        final long[] received = new long[MAXTASKS + 1];
        int maxInFlight;

        @Override
        protected Integer svc(Integer task) {
            if (task == null) {
                for (int i = 0; i < FIRST_K; i++) {
                    sendOut(i);
                    ntask++;
                }
                return goOn();
            }
            received[task]++;
            --ntask;
            List<Integer> next = children(task);
            for (int i = 0; i < next.size() - 1; i++) {
                sendOut(next.get(i));
                ntask++;
            }
            if (!next.isEmpty()) {
                ntask++;
                maxInFlight = Math.max(maxInFlight, ntask);
                return next.get(next.size() - 1);
            }
            return ntask == 0 ? eos() : goOn(); // "task removed"; NULL ends the farm
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        long count;

        @Override
        protected Integer svc(Integer task) {
            count++;
            return task;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldBringBackEveryGeneratedTaskOnceBeforeTheEmitterEnds(WaitStrategy strategy) {
        Emitter emitter = new Emitter();
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        Farm.of(workers)
                .emitter(emitter)
                .onDemand()
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8192));

        long[] expected = expectedHistogram();
        assertThat(emitter.received).containsExactly(expected);
        assertThat(workers.stream().mapToLong(w -> w.count).sum())
                .isEqualTo(12_273L); // the tree's size for maxtasks = 40
        assertThat(emitter.ntask).isZero();
        assertThat(emitter.maxInFlight).isGreaterThan(FIRST_K);
    }
}
