package org.fastflowj.patterns;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.patterns.concurrent.OutstandingBound;

/**
 * The emitter and loop head of a {@link MacroDataFlow} farm: takes new tasks from the generator, hands
 * the ready ones to the workers, and on each task done releases the tasks that waited for it. It ends
 * the farm once the generator has ended and no task is left.
 *
 * <p>Ready tasks wait here, not in the workers' channels: only {@link #TASKS_IN_FLIGHT_PER_WORKER} per
 * worker are handed out at a time, and a task just released by a completion goes before the ones the
 * generator added: depth first, as a work-stealing pool runs its own newest task, so chains of dependent
 * tasks progress (and their objects are forgotten) instead of every ready task of the window in turn.
 */
final class MdfScheduler extends MultiInputNode<MdfTask, MdfTask> {
    /**
     * Tasks handed to each worker and not yet back. Enough that a worker seldom waits for the scheduler
     * thread (which shares the cores with the workers and the generator) and its wake-ups are paid once
     * per many fine tasks; few enough that a released task does not queue behind thousands of others.
     */
    static final int TASKS_IN_FLIGHT_PER_WORKER = 64;

    private final DataDependencies dependencies = new DataDependencies();
    private final ArrayDeque<MdfTask> ready = new ArrayDeque<>();
    private final OutstandingBound bound;
    private final int maxInFlight;
    private int inFlight;
    private long outstanding;
    private boolean generatorEnded;

    /**
     * With workers in other groups: the tasks handed out, by index. A task comes back from another group
     * as a copy, and the dependency graph goes on from the original. Null in one process.
     */
    private final HashMap<Long, MdfTask> handedOut;

    MdfScheduler(OutstandingBound bound, int workers, boolean spansGroups) {
        this.bound = bound;
        this.maxInFlight = TASKS_IN_FLIGHT_PER_WORKER * workers;
        this.handedOut = spansGroups ? new HashMap<>() : null;
    }

    @Override
    protected MdfTask svc(MdfTask task) {
        if (handedOut != null && fromFeedback()) {
            task = original(task);
        }
        if (!fromFeedback()) {
            outstanding++;
            if (dependencies.register(task)) {
                ready.addLast(task);
                dispatch();
            }
            return goOn();
        }
        inFlight--;
        dependencies.complete(task);
        ArrayList<MdfTask> waiting = task.successors;
        if (waiting != null) {
            for (int i = waiting.size() - 1; i >= 0; i--) { // backwards, so the first successor ends up first
                MdfTask next = waiting.get(i);
                if (--next.unmetDependencies == 0) {
                    ready.addFirst(next);
                }
            }
        }
        forget(task);
        bound.release();
        outstanding--;
        dispatch();
        return generatorEnded && outstanding == 0 ? eos() : goOn();
    }

    private void dispatch() {
        while (inFlight < maxInFlight && !ready.isEmpty()) {
            inFlight++;
            MdfTask next = ready.pollFirst();
            if (handedOut != null) {
                handedOut.put(next.index, next);
            }
            sendOut(next);
        }
    }

    /**
     * The task handed out that {@code done} stands for, with what a remote run wrote copied into it. The
     * copy is made on this thread before the task's successors are released: they reach their workers
     * through channels, whose hand-off orders these writes before the successors' reads, as for a task
     * that ran here.
     */
    private MdfTask original(MdfTask done) {
        MdfTask original = handedOut.remove(done.index);
        if (original == null) {
            throw new IllegalStateException("MacroDataFlow: a worker returned " + done + ", which is not in flight");
        }
        if (done.isCopy()) {
            MdfGroups.copyBack(original, done);
        }
        return original;
    }

    /** Drops the done task's references, so that a chain of done tasks is not kept alive. */
    private static void forget(MdfTask task) {
        task.successors = null;
        task.body = null;
        task.params = null;
    }

    @Override
    protected void eosNotify(int channel) {
        generatorEnded = true;
        if (outstanding == 0) {
            sendOut(eos());
        }
    }
}
