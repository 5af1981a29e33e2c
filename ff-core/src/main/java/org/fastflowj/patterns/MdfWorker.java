package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/**
 * A {@link MacroDataFlow} worker: runs a ready task and sends it back to the scheduler as done. A copy
 * received from another group goes back with only the values the task wrote: the scheduler's group has
 * the rest.
 */
final class MdfWorker extends Node<MdfTask, MdfTask> {
    @Override
    protected MdfTask svc(MdfTask task) {
        try {
            if (task.kernel != null) {
                task.kernel.run(task.values);
            } else {
                task.body.run();
            }
        } catch (RuntimeException | Error e) {
            throw MacroDataFlowException.taskFailed(task, e);
        }
        if (task.isCopy()) {
            task.kernel = null;
            for (int i = 0; i < task.values.length; i++) {
                if (!task.written[i]) {
                    task.values[i] = null;
                }
            }
        }
        return task; // the worker's only output is the feedback channel to the scheduler
    }
}
