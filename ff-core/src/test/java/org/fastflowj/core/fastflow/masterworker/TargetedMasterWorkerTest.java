package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_lb_affinity.cpp: in an on-demand (4 slots) master-worker farm the
 * emitter sends 4 tasks to each of 4 workers with ff_send_out_to, sends each task that comes back to the
 * same worker until it has been processed 10 times, and ends once every worker has finished one task.
 * The per-task core and NUMA node (read from the thread mapper) are not mirrored: only the run option
 * threadMapping pins threads here, and the test checks where the workers were pinned.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TargetedMasterWorkerTest {
    private static final int NWORKERS = 4;
    private static final int INBUF_Q_SIZE = 4;
    private static final int ROUNDS = 10;

    /** A task bound to one worker; done counts the times it was processed. */
    static final class Task {
        final int sourceW;
        int done;
        final List<Integer> processedBy = new ArrayList<>();

        Task(int sourceW) {
            this.sourceW = sourceW;
        }
    }

    static final class Emitter extends MultiOutputNode<Task, Task> {
        final List<Task> tasks = new ArrayList<>();
        final boolean[] completed = new boolean[NWORKERS];
        int resent;
        private boolean done;

        @Override
        protected Task svc(Task task) {
            if (task == null) {
                for (int j = 0; j < INBUF_Q_SIZE; j++) {
                    for (int i = 0; i < NWORKERS; i++) {
                        Task t = new Task(i);
                        tasks.add(t);
                        sendOutTo(t, i); // lb->ff_send_out_to(task, targetworker)
                    }
                }
            } else if (task.done < ROUNDS) {
                resent++;
                sendOutTo(task, task.sourceW);
            } else {
                completed[task.sourceW] = true;
            }
            // the C++ check skips the first call, then ends once every worker completed a task
            for (boolean c : completed) {
                done &= c;
            }
            if (done) {
                return eos();
            }
            done = true;
            return goOn();
        }
    }

    static final class Worker extends Node<Task, Task> {
        int taskcount;
        final List<Integer> ids = new ArrayList<>();

        @Override
        protected Task svc(Task task) {
            task.done++;
            task.processedBy.add(id());
            ids.add(id());
            LockSupport.parkNanos(task.sourceW * 100_000L); // usleep(sourceW * 100)
            taskcount++;
            return task;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepEveryTaskOnItsWorkerUntilEachWorkerFinishedOne(WaitStrategy strategy) {
        Emitter emitter = new Emitter();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            workers.add(new Worker());
        }
        Farm farm = Farm.of(workers).emitter(emitter).onDemand(INBUF_Q_SIZE).wrapAround();
        farm.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).threadMapping("0,1"));

        boolean[] all = new boolean[NWORKERS];
        Arrays.fill(all, true);
        assertThat(emitter.completed).containsExactly(all);
        assertThat(emitter.tasks).hasSize(NWORKERS * INBUF_Q_SIZE);
        for (Task t : emitter.tasks) {
            assertThat(t.done).isBetween(1, ROUNDS);
            assertThat(t.processedBy).hasSize(t.done).containsOnly(t.sourceW);
        }
        int processed = 0;
        for (int i = 0; i < NWORKERS; i++) {
            int worker = i;
            Worker w = workers.get(i);
            assertThat(w.ids).containsOnly(i);
            // at least one of its tasks went round 10 times, none more
            assertThat(w.taskcount).isBetween(ROUNDS, ROUNDS * INBUF_Q_SIZE);
            assertThat(w.taskcount)
                    .isEqualTo(emitter.tasks.stream()
                            .filter(t -> t.sourceW == worker)
                            .mapToInt(t -> t.done)
                            .sum());
            processed += w.taskcount;
        }
        assertThat(emitter.resent).isEqualTo(processed - NWORKERS * INBUF_Q_SIZE);
        // threads are pinned in graph order (emitter, worker0..3) cycling over "0,1", where the platform allows
        List<NodeStats> nodes = farm.stats().nodes();
        assertThat(nodes)
                .extracting(NodeStats::name)
                .containsExactly(
                        "ff-farm1-emitter",
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-farm1-worker2",
                        "ff-farm1-worker3");
        for (int i = 0; i < nodes.size(); i++) {
            assertThat(nodes.get(i).cpu()).isIn(i % 2, -1);
        }
    }
}
