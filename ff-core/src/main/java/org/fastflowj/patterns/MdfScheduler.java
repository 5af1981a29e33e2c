package org.fastflowj.patterns;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * added, depth first, as a work-stealing pool runs its own newest task. Each completion also records
 * where the task ran: its written objects' version goes up, and the worker group it ran in holds their
 * new version (and the version of what it read). A task handed out carries its objects' versions, for the
 * codec of each link to send what the group at its other end holds as a reference, and prefers the
 * workers of the group that holds the current version of what it writes ({@link #preferredGroup}): the
 * farm's affinity gives it to one of them when one has a free slot, holds it for them while none has,
 * and lets any worker take it once nothing else waits.
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

    /** Across groups: each worker's group ({@link MdfGroups#groupOfWorkers}, -1 for this one's). */
    private final int[] groupOfWorker;
    /** Per worker group, the score of the task being handed out ({@link #preferredGroup}). */
    private final int[] scores;

    /** One process: the scheduler only forwards ready tasks to the on-demand dispatch. */
    MdfScheduler(MdfRun run, int workers) {
        this.run = run;
        this.maxInFlight = TASKS_IN_FLIGHT_PER_WORKER * workers;
        this.handedOut = null;
        this.ready = null;
        this.released = null;
        this.groupOfWorker = null;
        this.scores = null;
    }

    /** Workers in several groups: the scheduler completes every task and steers each to its data. */
    MdfScheduler(MdfRun run, MdfGroups groups, int homeWorkers) {
        this.run = run;
        this.groupOfWorker = groups.groupOfWorkers(homeWorkers);
        this.maxInFlight = TASKS_IN_FLIGHT_PER_WORKER * groupOfWorker.length;
        this.handedOut = new HashMap<>();
        this.ready = new ArrayDeque<>();
        this.released = new ArrayList<>();
        this.scores = new int[groups.workerGroupSizes().size()];
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
            completeHere(original(task), groupOfWorker[inputChannel()]); // worker i feeds back on channel i
        }
        dispatch();
        return allDone && generatorEnded ? eos() : goOn();
    }

    /** {@code done} ran in worker group {@code group} (-1: this one): its objects' records learn it first. */
    private void completeHere(MdfTask done, int group) {
        inFlight--;
        MdfObject[] objects = done.objects;
        for (int p = 0; p < objects.length; p++) {
            if (done.written[p]) {
                objects[p].writtenIn(group); // before the successors it releases snapshot the version
            } else {
                objects[p].readIn(group);
            }
        }
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

    /** The farm's affinity: where a task would rather go, as the scheduler chose when it handed it out. */
    static int preferredGroupOf(Object task) {
        return ((MdfTask) task).preferredGroup;
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
            next.snapshotVersions();
            next.preferredGroup = preferredGroup(next);
            sendOut(next); // the channel's release publishes both to the sender and the dispatch
        }
    }

    /**
     * The worker group that holds the current version of the most objects the task writes (of its one
     * written object, as a rule: the group that wrote it last), or -1 when no worker group holds any. Sent
     * there, those values cross as references, so a chain of tasks updating one object stays where the
     * object is while that group keeps up. What a task only reads does not steer it: a task held back for a
     * group that merely holds its inputs would be taken from this group's workers, which have all the
     * values, and every task a worker group runs sends its result back in full.
     */
    private int preferredGroup(MdfTask task) {
        MdfObject[] objects = task.objects;
        boolean any = false;
        for (int p = 0; p < objects.length; p++) {
            if (task.written[p]) {
                for (long held = objects[p].heldBy; held != 0; held &= held - 1) {
                    int g = Long.numberOfTrailingZeros(held);
                    if (g < scores.length) {
                        scores[g]++;
                        any = true;
                    }
                }
            }
        }
        if (!any) {
            return -1;
        }
        int best = 0;
        for (int g = 1; g < scores.length; g++) {
            if (scores[g] > scores[best]) {
                best = g;
            }
        }
        Arrays.fill(scores, 0);
        return best;
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
            done.adoptCrossedParameters();
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
