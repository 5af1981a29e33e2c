package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-or-none.cpp: a wrapped collector-less farm whose multi-output workers send each task forward to a gatherer and an ack back, scheduled so a write runs alone (multi-reader single-writer); the shared counter ends at niter * 7 writes. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AllOrNoneFarmTest {

    static final int WRITES_PER_ITERATION = 7;

    record Task(boolean read) {}

    /** State shared by the workers, as the C++ global: a non-atomic read-modify-write per write task. */
    static final class Shared {
        final AtomicLong state = new AtomicLong();
        final AtomicInteger readers = new AtomicInteger();
        final AtomicInteger writers = new AtomicInteger();
        final AtomicInteger violations = new AtomicInteger();
    }

    static final class Generator extends Node<Void, Task> {
        private final int niter;

        Generator(int niter) {
            this.niter = niter;
        }

        @Override
        protected Task svc(Void none) {
            String pattern = "RRRWRWWRRRWWRWW"; // 8 reads, 7 writes, as in the C++ generator
            for (int i = 0; i < niter; i++) {
                for (char c : pattern.toCharArray()) {
                    sendOut(new Task(c == 'R'));
                }
            }
            return eos();
        }
    }

    /**
     * The scheduler (emitter and loop head). FastFlow's version stops reading its input with
     * input_active(false) while a write is pending; we have no such switch, so it keeps the input
     * tasks it cannot dispatch yet in a local queue, which gives the same schedule.
     */
    static final class Scheduler extends MultiInputNode<Task, Task> {
        private final ArrayDeque<Task> pending = new ArrayDeque<>();
        private long outstandingReads;
        private long outstandingWrites;
        private Task bufferedWrite;
        private boolean eosArrived;
        int acks;

        @Override
        protected Task svc(Task item) {
            if (!fromFeedback()) {
                pending.add(item);
                dispatch();
                return goOn();
            }
            acks++;
            if (item.read()) {
                outstandingReads--;
                if (outstandingReads == 0 && bufferedWrite != null) {
                    sendOut(bufferedWrite);
                    bufferedWrite = null;
                    outstandingWrites = 1;
                    return goOn();
                }
            } else {
                outstandingWrites = 0;
            }
            dispatch();
            return haveToTerminate() ? eos() : goOn();
        }

        private void dispatch() {
            while (!pending.isEmpty() && bufferedWrite == null && outstandingWrites == 0) {
                Task next = pending.poll();
                if (next.read()) {
                    sendOut(next);
                    outstandingReads++;
                } else if (outstandingReads == 0) {
                    sendOut(next);
                    outstandingWrites = 1;
                } else {
                    bufferedWrite = next;
                }
            }
        }

        private boolean haveToTerminate() {
            return eosArrived
                    && pending.isEmpty()
                    && bufferedWrite == null
                    && outstandingReads == 0
                    && outstandingWrites == 0;
        }

        @Override
        protected void eosNotify(int channel) {
            eosArrived = true;
            if (haveToTerminate()) {
                sendOut(eos());
            }
        }
    }

    static final class Worker extends MultiOutputNode<Task, Task> {
        private final Shared shared;

        Worker(Shared shared) {
            this.shared = shared;
        }

        @Override
        protected Task svc(Task item) throws InterruptedException {
            if (!item.read()) {
                if (shared.writers.incrementAndGet() != 1 || shared.readers.get() != 0) {
                    shared.violations.incrementAndGet();
                }
                long tmp = shared.state.get();
                shared.state.set(0);
                Thread.sleep(2); // work, as the C++ usleep
                shared.state.set(tmp + 1);
                shared.writers.decrementAndGet();
            } else {
                shared.readers.incrementAndGet();
                if (shared.writers.get() != 0) {
                    shared.violations.incrementAndGet();
                }
                Thread.sleep(1); // reading, as the C++ usleep
                shared.readers.decrementAndGet();
            }
            sendOutTo(item, 0); // the result, forward to the gatherer
            sendFeedbackTo(item, 0); // the ack, back to the scheduler
            return goOn();
        }
    }

    static final class Gatherer extends MultiInputNode<Task, Void> {
        int reads;
        int writes;

        @Override
        protected Void svc(Task item) {
            if (item.read()) {
                reads++;
            } else {
                writes++;
            }
            return goOn();
        }
    }

    @Test
    void shouldRunEveryWriteAloneAndCountThemAll() {
        int niter = 10;
        Shared shared = new Shared();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(new Worker(shared));
        }
        Scheduler scheduler = new Scheduler();
        Gatherer gatherer = new Gatherer();
        Farm farm = Farm.of(workers).emitter(scheduler).wrapAround();
        new Pipeline(new Generator(niter), farm, gatherer).runAndWaitEnd();

        assertThat(shared.state.get()).isEqualTo((long) niter * WRITES_PER_ITERATION); // "RESULT OK"
        assertThat(shared.violations.get()).isZero();
        assertThat(gatherer.writes).isEqualTo(niter * WRITES_PER_ITERATION);
        assertThat(gatherer.reads).isEqualTo(niter * 8);
        assertThat(scheduler.acks).isEqualTo(niter * 15);
    }
}
