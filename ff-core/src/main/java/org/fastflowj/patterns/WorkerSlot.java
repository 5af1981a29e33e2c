package org.fastflowj.patterns;

/**
 * One worker's ticket for the current call, allocated once per worker and handed back and forth: the
 * scheduler fills it and sends it to the worker, the worker runs its share, leaves its partial result
 * here and returns it as feedback.
 *
 * <p>Threading: the fields are plain. Each hand-off goes through an SPSC channel (a release store when
 * the item is published, an acquire load when it is taken), so whoever holds the slot sees every write
 * made by its previous holder.
 */
final class WorkerSlot {
    /** The worker that owns the slot; {@code -1} for a call run on the calling thread. */
    final int worker;

    LoopJob job;
    /** A static block's iterations, {@code [fromIteration, toIteration)}. */
    long fromIteration;

    long toIteration;
    long longPartial;
    double doublePartial;
    Object objectPartial;

    WorkerSlot(int worker) {
        this.worker = worker;
    }

    @Override
    public String toString() {
        return worker < 0 ? "calling thread" : "worker " + worker;
    }
}
