package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/**
 * A {@link MacroDataFlow} worker. In one process it completes the tasks it runs: it releases their
 * successors and runs the first one that became ready itself, at once (no round trip through the
 * scheduler), and sends the others back to the scheduler, which hands them to whichever worker asks
 * first. When workers span groups, the scheduler completes every task: a worker sends each back, and a
 * copy received from another group goes back with only the values the task wrote.
 */
final class MdfWorker extends Node<MdfTask, MdfTask> implements MdfTask.ReadySink {
    /**
     * Successors run in a row on one worker before the next one goes back to the scheduler. While a worker
     * runs a chain, a task may wait in its on-demand slot; handing the chain on now and then bounds that
     * wait to this many task times, at a cost of one round trip through the scheduler per this many tasks.
     */
    static final int CHAIN_LIMIT = 256;

    /** The run's shared state; null when the scheduler completes the tasks (and in another group). */
    private final transient MdfRun run;
    /** This worker's releaser slot in the run's outstanding bound. */
    private final int releaser;

    MdfWorker(MdfRun completesTasksOf, int releaser) {
        this.run = completesTasksOf;
        this.releaser = releaser;
    }

    @Override
    protected MdfTask svc(MdfTask task) {
        if (run == null || task.isCopy()) {
            boolean copy = task.isCopy();
            if (copy) {
                task.adoptCrossedParameters();
            }
            task.runBody();
            if (copy) {
                task.kernel = null;
                for (int i = 0; i < task.values.length; i++) {
                    if (!task.written[i]) {
                        task.values[i] = null; // this group may keep it (cached); only written values go back
                    }
                }
            }
            return task; // to the scheduler, which completes it
        }
        MdfTask current = task;
        for (int inRow = 1; ; inRow++) {
            try {
                current.runBody();
            } catch (MacroDataFlowException failure) {
                run.failed = true; // the run is cancelled, but other workers may be inside a chain of their own
                throw failure;
            }
            MdfTask next = current.complete(this);
            if (run.taskDone(releaser)) {
                sendOut(MdfRun.END);
            }
            if (next == null || run.failed) { // after a failure, tasks not started are dropped
                return goOn();
            }
            if (inRow == CHAIN_LIMIT) {
                sendOut(next);
                return goOn();
            }
            current = next;
        }
    }

    @Override
    public void ready(MdfTask successor) {
        sendOut(successor); // the worker's only output is the feedback channel to the scheduler
    }
}
