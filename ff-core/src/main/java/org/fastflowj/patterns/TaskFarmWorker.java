package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/** A worker of a {@link TaskFarm}: runs each task, reports a failure, and counts the task as done. */
final class TaskFarmWorker extends Node<FarmTask, Void> {
    private final int index;
    private final TaskFarm farm;

    TaskFarmWorker(int index, TaskFarm farm) {
        this.index = index;
        this.farm = farm;
    }

    @Override
    protected void svcInit() {
        farm.workerStarted(index, Thread.currentThread());
    }

    @Override
    protected Void svc(FarmTask task) {
        Throwable failure = null;
        try {
            task.body.run();
        } catch (Throwable t) { // the worker outlives a failing task, as ParallelFor's do
            failure = t;
        }
        farm.taskDone(task, failure);
        return goOn(); // nothing flows on: the caller counts finished tasks instead of taking results
    }

    @Override
    public String toString() {
        return "TaskFarm worker";
    }
}
