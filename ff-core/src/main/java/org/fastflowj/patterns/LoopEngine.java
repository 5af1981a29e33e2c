package org.fastflowj.patterns;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;

/**
 * The running farm behind a {@link ParallelFor} and the rules of a call: one call at a time on the
 * workers (the one {@link LoopJob} is reused), any other call on its own thread, and the caller parked
 * until the scheduler says the call ended.
 *
 * <pre>
 *   caller ──offload(job)──▶ [accelerator input] ──▶ scheduler ⇄ workers (farm with feedback)
 *      ▲                                                  │
 *      └──────────── job.done + wakeWaiter ◀──────────────┘
 * </pre>
 */
final class LoopEngine {
    /**
     * Blocking waits: every message here is a control message (one job, one slot per worker), so a
     * parked thread should be woken at once rather than by the batch; idle workers then use no CPU.
     */
    static final RunOptions DEFAULT_OPTIONS =
            RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING).queueCapacity(8);

    private final LoopJob shared;
    private final Thread[] workerThreads;
    private final Accelerator<LoopJob, Void> accelerator;
    /** Held by the call running on the workers; its CAS and reset order successive callers' writes. */
    private final AtomicBoolean busy = new AtomicBoolean();

    private final AtomicBoolean closed = new AtomicBoolean();

    LoopEngine(int workers, RunOptions options) {
        WorkerSlot[] slots = new WorkerSlot[workers];
        workerThreads = new Thread[workers];
        List<LoopWorker> farmWorkers = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            slots[w] = new WorkerSlot(w);
            farmWorkers.add(new LoopWorker(w, workerThreads));
        }
        shared = new LoopJob(slots);
        Farm farm = Farm.of(farmWorkers).emitter(new LoopScheduler(workers)).wrapAround();
        // in process: the jobs and slots are shared objects, never copies (a serialization check would copy them)
        accelerator = Accelerator.startInProcess(farm, options);
        shared.wakeCaller = accelerator::wakeWaiter;
    }

    int workers() {
        return shared.slots.length;
    }

    /** The job for a new call: the shared one if the workers are free, else one run on the calling thread. */
    LoopJob acquire() {
        if (closed.get()) {
            throw new IllegalStateException("ParallelFor is closed: its workers have ended");
        }
        if (busy.compareAndSet(false, true)) {
            return shared;
        }
        return new LoopJob(new WorkerSlot[] {new WorkerSlot(-1)});
    }

    /** Runs the call set up in {@code job}; rethrows a body's failure. */
    void execute(LoopJob job, long first, long last, long step, long grain, long count) {
        job.loop(first, last, step, grain, count);
        if (count == 0) {
            return;
        }
        if (job == shared) {
            accelerator.offload(job);
            await(job);
        } else {
            WorkerSlot slot = job.slots[0];
            slot.fromIteration = 0;
            slot.toIteration = count;
            job.participants = 1;
            ChunkRunner.run(job, slot);
        }
        job.rethrowFailure();
    }

    void release(LoopJob job) {
        job.clear();
        if (job == shared) {
            busy.set(false);
        }
    }

    /** The caller waits by the run's wait strategy until the scheduler marks the call done and wakes it. */
    private void await(LoopJob job) {
        boolean interrupted = false;
        while (!accelerator.awaitUntil(job)) {
            if (!Thread.interrupted()) {
                throw new IllegalStateException("the ParallelFor's workers ended during a call");
            }
            // the workers still use the body: the call cannot be abandoned, so an interrupt is kept for later
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    void close() {
        Thread me = Thread.currentThread();
        for (Thread worker : workerThreads) {
            if (worker == me) {
                throw new IllegalStateException("ParallelFor.close() from inside one of its own loop bodies");
            }
        }
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // wait for a running call; busy stays set, so a call racing with close runs on its own thread
        while (!busy.compareAndSet(false, true)) {
            LockSupport.parkNanos(this, 100_000);
        }
        accelerator.close();
    }
}
