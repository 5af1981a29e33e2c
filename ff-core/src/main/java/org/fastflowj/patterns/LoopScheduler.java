package org.fastflowj.patterns;

import org.fastflowj.core.MultiOutputNode;

/**
 * The farm's emitter (FastFlow's {@code forall_Scheduler}): takes a call from the caller, hands each
 * taking-part worker its slot (with its static block, or the right to claim dynamic chunks), counts the
 * slots that come back as feedback, and ends the call when all are back. Between calls it parks like any
 * node on an empty input.
 *
 * <pre>
 *   caller ──job──▶ scheduler ──slot──▶ worker0 ─┐
 *                      ▲       └─slot──▶ worker1 ─┤
 *                      └──────── slots back ──────┘ (feedback)
 * </pre>
 */
final class LoopScheduler extends MultiOutputNode<Object, WorkerSlot> {
    private final int workers;
    private LoopJob current;
    private int outstanding;

    LoopScheduler(int workers) {
        this.workers = workers;
    }

    @Override
    protected WorkerSlot svc(Object item) {
        if (item instanceof LoopJob job) {
            start(job);
        } else if (--outstanding == 0) {
            LoopJob job = current;
            current = null;
            job.finish();
        }
        return goOn();
    }

    private void start(LoopJob job) {
        int taking = (int) Math.min(workers, job.isDynamic() ? job.chunks : job.count);
        job.participants = taking;
        if (job.isDynamic()) {
            job.claims.reset();
        }
        current = job;
        outstanding = taking;
        for (int w = 0; w < taking; w++) {
            WorkerSlot slot = job.slots[w];
            slot.job = job;
            if (!job.isDynamic()) {
                slot.fromIteration = LoopRange.blockStart(job.count, taking, w);
                slot.toIteration = LoopRange.blockStart(job.count, taking, w + 1);
            }
            sendOutTo(slot, w);
        }
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(eos()); // closed: no call is running (close() waits for it)
    }

    @Override
    public String toString() {
        return "ParallelFor scheduler";
    }
}
