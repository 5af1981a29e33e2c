package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_blk.cpp: pipe(First, farm(4 x Worker), Last) with one- to four-slot
 * queues, First switching the run between non-blocking and blocking mode every quarter of its 4000 tasks;
 * Last receives every task once. The per-item switch (ff_send_out(BLK/NBLK)) is outside our scope: the
 * mode is a run option here, so the whole run is done under each wait strategy instead (NBLK = BUSY_SPIN,
 * BLK = BLOCKING), and capacity 1 stands for the short fixed-size queues.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SmallQueuesUnderEachWaitStrategyTest {
    static final class First extends Node<Void, Long> {
        private final int tasks;

        First(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= tasks; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Worker i works i * 100 us per task (i ms in C++). */
    static final class Worker extends Node<Long, Long> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            received.add(task);
            LockSupport.parkNanos(id() * 100_000L);
            return task;
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Last extends Node<Long, Void> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            received.add(task);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldDeliverEveryTaskOnceThroughOneSlotQueues(WaitStrategy strategy) {
        // 8 spinning threads on 2 cores hand over an item about once per time slice: fewer tasks then
        int tasks = strategy == WaitStrategy.BUSY_SPIN ? 12 : 400;
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker(), new Worker());
        Last last = new Last();
        // ff_Farm: default collector
        Pipeline pipe = new Pipeline(new First(tasks), Farm.of(workers).collector(new Pass()), last);
        pipe.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(1));

        List<Long> all = LongStream.rangeClosed(1, tasks).boxed().toList();
        assertThat(last.received).containsExactlyInAnyOrderElementsOf(all);
        List<Long> processed = new ArrayList<>();
        for (Worker w : workers) {
            assertThat(w.received).isSorted();
            processed.addAll(w.received);
        }
        assertThat(processed).containsExactlyInAnyOrderElementsOf(all);
    }
}
