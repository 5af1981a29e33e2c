package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_scheduling.cpp: a multi-output emitter with feedback schedules each batch of tasks on the least-loaded worker and stops before the task budget. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UserSchedulingTest {
    private static final int WORKERS = 3;
    private static final int MAX_TASKS = 1000;
    private static final int BATCH = 3;
    private static final int MAX_COST = 999;
    private static final long SEED = 131071;

    /** The scheduling policy, pure: the next worker is the one with the least load so far (lowest index on ties). */
    private static int leastLoaded(long[] load) {
        int best = 0;
        for (int i = 1; i < load.length; i++) {
            if (load[i] < load[best]) {
                best = i;
            }
        }
        return best;
    }

    static final class Scheduler extends MultiOutputNode<Integer, Integer> {
        private final Random random = new Random(SEED);
        final long[] load = new long[WORKERS];
        final int[] sentTo = new int[WORKERS];
        int sent;
        int feedbacks;

        private void sendTo(int cost, int worker) {
            load[worker] += cost;
            sentTo[worker]++;
            sent++;
            sendOutTo(cost, worker);
        }

        @Override
        protected Integer svc(Integer done) {
            if (done == null) {
                for (int i = 0; i < outputChannels(); i++) {
                    sendTo(random.nextInt(MAX_COST), i);
                }
                return goOn();
            }
            feedbacks++;
            if (sent + BATCH >= MAX_TASKS) {
                return eos();
            }
            for (int i = 0; i < BATCH; i++) {
                int cost = random.nextInt(MAX_COST);
                sendTo(cost, leastLoaded(load));
            }
            return goOn();
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        long elapsed;
        int tasks;

        @Override
        protected Integer svc(Integer cost) {
            elapsed += cost;
            tasks++;
            return cost;
        }
    }

    @Test
    void shouldRunEveryScheduledTaskOnTheWorkerThePolicyChose() {
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        Scheduler scheduler = new Scheduler();
        Farm.of(workers).emitter(scheduler).wrapAround().runAndWaitEnd();

        // the policy does not depend on timing: replay it to know the expected assignment
        Random replay = new Random(SEED);
        long[] load = new long[WORKERS];
        int[] count = new int[WORKERS];
        int sent = 0;
        for (int i = 0; i < WORKERS; i++) {
            load[i] += replay.nextInt(MAX_COST);
            count[i]++;
            sent++;
        }
        while (sent + BATCH < MAX_TASKS) {
            for (int i = 0; i < BATCH; i++) {
                int cost = replay.nextInt(MAX_COST);
                int w = leastLoaded(load);
                load[w] += cost;
                count[w]++;
                sent++;
            }
        }

        assertThat(scheduler.sent).isEqualTo(sent).isEqualTo(999);
        assertThat(scheduler.feedbacks).isEqualTo(333);
        for (int i = 0; i < WORKERS; i++) {
            assertThat(workers.get(i).elapsed).isEqualTo(load[i]).isEqualTo(scheduler.load[i]);
            assertThat(workers.get(i).tasks).isEqualTo(count[i]).isEqualTo(scheduler.sentTo[i]);
        }
    }
}
