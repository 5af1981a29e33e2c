package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_blk3.cpp: pipe(first, wrapped collector-less farm) with queues of 100,
 * where the scheduler counts the tasks in flight and ends once the input ended and every task came back.
 *
 * <p>Partly mirrored: the C++ source switches the run-time between blocking and non-blocking mode mid-stream
 * (BLK at task 100, NBLK at 500, BLK at 800); a per-item switch is out of scope, so the whole program is
 * run under each wait strategy instead. The C++ scheduler only checks for the end when a task comes back, so
 * it would wait forever if every task were back before the input's EOS; this test also checks on the EOS.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FeedbackFarmWaitModesTest {
    private static final int NW = 3;
    private static final long NUMTASKS = 1000;

    record Task(int op, long t, long seq) {}

    static final class First extends Node<Void, Task> {
        @Override
        protected Task svc(Void none) {
            for (long i = 1; i <= NUMTASKS; i++) {
                sendOut(new Task(1, i % 10, i));
            }
            return eos();
        }
    }

    static final class Scheduler extends MultiInputNode<Task, Task> {
        long inFlight;
        final List<Long> fromInput = new ArrayList<>();
        final List<Long> back = new ArrayList<>();
        boolean eosArrived;
        boolean wentNegative;

        @Override
        protected Task svc(Task task) {
            if (!fromFeedback()) {
                inFlight++;
                fromInput.add(task.seq());
                return task;
            }
            back.add(task.seq());
            if (--inFlight < 0) {
                wentNegative = true;
            }
            return inFlight == 0 && eosArrived ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosArrived = true;
            if (inFlight == 0) {
                sendOut(eos());
            }
        }
    }

    static final class Worker extends Node<Task, Task> {
        long got;

        @Override
        protected Task svc(Task task) {
            got++;
            if (task.op() == 1) {
                LockSupport.parkNanos(10_000);
            }
            return task;
        }
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldBringEveryTaskBackBeforeTheSchedulerEnds(WaitStrategy strategy) {
        Scheduler scheduler = new Scheduler();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < NW; i++) {
            workers.add(new Worker());
        }
        Farm farm = Farm.of(workers).emitter(scheduler).wrapAround();
        new Pipeline(new First(), farm)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(100));

        List<Long> all = LongStream.rangeClosed(1, NUMTASKS).boxed().toList();
        assertThat(scheduler.eosArrived).isTrue();
        assertThat(scheduler.fromInput).containsExactlyElementsOf(all);
        assertThat(scheduler.back).containsExactlyInAnyOrderElementsOf(all);
        assertThat(scheduler.inFlight).isZero();
        assertThat(scheduler.wentNegative).isFalse();
        assertThat(workers.stream().mapToLong(w -> w.got).sum()).isEqualTo(NUMTASKS);
    }
}
