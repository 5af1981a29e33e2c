package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/** A {@link MacroDataFlow} worker: runs a ready task and sends it back to the scheduler as done. */
final class MdfWorker extends Node<MdfTask, MdfTask> {
    @Override
    protected MdfTask svc(MdfTask task) {
        try {
            task.body.run();
        } catch (RuntimeException | Error e) {
            throw MacroDataFlowException.taskFailed(task, e);
        }
        return task; // the worker's only output is the feedback channel to the scheduler
    }
}
