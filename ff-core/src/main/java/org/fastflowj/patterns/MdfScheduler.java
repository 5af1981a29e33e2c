package org.fastflowj.patterns;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import org.fastflowj.core.MultiInputNode;

/**
 * The emitter and loop head of a {@link MacroDataFlow} farm: hands ready tasks to the workers on demand
 * and ends the farm once the run's end has been claimed ({@link MdfRun}) and the generator has ended.
 *
 * <p>In one process the workers complete the tasks themselves, so this node only sees the tasks ready
 * when added (from the generator) and the extra successors a worker released but does not run itself
 * (from the feedback channels); it passes both on to the on-demand dispatch at once.
 *
 * <p>When workers span groups, tasks come back here as done and this node completes them: ready tasks
 * then wait here, not in the workers' channels; only {@link #TASKS_IN_FLIGHT_PER_WORKER} per worker are
 * handed out at a time, and a task just released by a completion goes before the ones the generator
 * added, depth first, as a work-stealing pool runs its own newest task.
 */
final class MdfScheduler extends MultiInputNode<MdfTask, MdfTask> implements MdfTask.ReadySink {
    /**
     * Across groups: tasks handed to each worker and not yet back. Enough that a worker seldom waits for
     * the scheduler thread; few enough that a released task does not queue behind thousands of others.
     */
    static final int TASKS_IN_FLIGHT_PER_WORKER = 64;

    private final MdfRun run;
    private boolean allDone;
    private boolean generatorEnded;

    /**
     * With workers in other groups: the tasks handed out, by index (a task comes back from another group
     * as a copy, and the dependency graph goes on from the original), the ready ones waiting, and those
     * released by the completion in progress. Null in one process.
     */
    private final HashMap<Long, MdfTask> handedOut;

    private final ArrayDeque<MdfTask> ready;
    private final ArrayList<MdfTask> released;
    private final int maxInFlight;
    private int inFlight;

    MdfScheduler(MdfRun run, int workers, boolean spansGroups) {
        this.run = run;
        this.maxInFlight = TASKS_IN_FLIGHT_PER_WORKER * workers;
        this.handedOut = spansGroups ? new HashMap<>() : null;
        this.ready = spansGroups ? new ArrayDeque<>() : null;
        this.released = spansGroups ? new ArrayList<>() : null;
    }

    @Override
    protected MdfTask svc(MdfTask task) {
        if (task == MdfRun.END) {
            allDone = true;
            return generatorEnded ? eos() : goOn();
        }
        if (handedOut == null) {
            return task; // ready: to the on-demand dispatch
        }
        if (!fromFeedback()) {
            ready.addLast(task);
        } else {
            completeHere(original(task));
        }
        dispatch();
        return allDone && generatorEnded ? eos() : goOn();
    }

    private void completeHere(MdfTask done) {
        inFlight--;
        MdfTask first = done.complete(this);
        if (first != null) {
            released.add(0, first);
        }
        for (int i = released.size() - 1; i >= 0; i--) { // backwards, so the first successor ends up first
            ready.addFirst(released.get(i));
        }
        released.clear();
        if (run.taskDone(0)) { // the only releaser when workers span groups
            allDone = true;
        }
    }

    @Override
    public void ready(MdfTask successor) {
        released.add(successor);
    }

    private void dispatch() {
        while (inFlight < maxInFlight && !ready.isEmpty()) {
            inFlight++;
            MdfTask next = ready.pollFirst();
            handedOut.put(next.index, next);
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

    @Override
    protected void eosNotify(int channel) {
        generatorEnded = true;
        if (allDone) {
            sendOut(eos());
        }
    }
}
