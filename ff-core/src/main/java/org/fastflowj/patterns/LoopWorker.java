package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/** A farm worker of a {@link ParallelFor}: runs its slot's share of the call and sends the slot back. */
final class LoopWorker extends Node<WorkerSlot, WorkerSlot> {
    private final int index;
    private final Thread[] threads;

    LoopWorker(int index, Thread[] threads) {
        this.index = index;
        this.threads = threads;
    }

    @Override
    protected void svcInit() {
        // read only by this thread (close() from inside a body), so a plain write is enough
        threads[index] = Thread.currentThread();
    }

    @Override
    protected WorkerSlot svc(WorkerSlot slot) {
        ChunkRunner.run(slot.job, slot);
        return slot; // back to the scheduler: the farm wraps around
    }

    @Override
    public String toString() {
        return "ParallelFor worker";
    }
}
