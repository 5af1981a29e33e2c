package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_blk2.cpp: a master-worker farm (no collector, one-slot queues) whose
 * scheduler sends a round of 1000 tasks at start and one more round for each of the first four results
 * that come back, then ends; the workers process all five rounds. The scheduler's switches between
 * blocking and non-blocking mode (returning BLK/NBLK) are outside our scope: the whole run is done under
 * each wait strategy instead.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MasterWorkerRoundsSmallQueuesTest {
    private static final int ROUND = 100;
    private static final int ROUNDS = 5;

    static final class Scheduler extends Node<Long, Long> {
        int rounds;
        int calls;
        final List<Long> results = new ArrayList<>();

        private void sendRound() {
            for (long i = (long) rounds * ROUND; i < (long) rounds * ROUND + ROUND; i++) {
                sendOut(i + 1);
            }
            ++rounds;
        }

        @Override
        protected Long svc(Long in) {
            calls++;
            if (in == null) {
                sendRound();
                return goOn(); // BLK in C++
            }
            results.add(in);
            sendRound();
            return rounds < ROUNDS ? goOn() : eos(); // NBLK, BLK, NBLK, then EOS
        }
    }

    /** Worker i works i * 200 us per task (i * 50 ms in C++). */
    static final class Worker extends Node<Long, Long> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            received.add(task);
            LockSupport.parkNanos(id() * 200_000L);
            return task;
        }
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldProcessEveryRoundSentBeforeTheSchedulerEnded(WaitStrategy strategy) {
        Scheduler scheduler = new Scheduler();
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        Farm.of(workers)
                .emitter(scheduler)
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(1));

        assertThat(scheduler.calls).isEqualTo(ROUNDS); // svc(nullptr) and four results
        assertThat(scheduler.rounds).isEqualTo(ROUNDS);
        assertThat(scheduler.results).hasSize(ROUNDS - 1).allSatisfy(r -> assertThat(r)
                .isBetween(1L, (long) ROUNDS * ROUND));
        List<Long> processed = new ArrayList<>();
        for (Worker w : workers) {
            assertThat(w.received).isSorted();
            processed.addAll(w.received);
        }
        // the EOS follows the last round: every task sent reaches a worker, even those whose result is dropped
        assertThat(processed)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, (long) ROUNDS * ROUND).boxed().toList());
    }
}
