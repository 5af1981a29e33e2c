package org.fastflowj.patterns;

import java.util.ArrayList;
import org.fastflowj.core.MultiInputNode;

/**
 * The emitter and loop head of a {@link MacroDataFlow} farm: takes new tasks from the generator, hands
 * the ready ones to the workers, and on each task done releases the tasks that waited for it. It ends
 * the farm once the generator has ended and no task is left.
 */
final class MdfScheduler extends MultiInputNode<MdfTask, MdfTask> {
    private final DataDependencies dependencies = new DataDependencies();
    private final OutstandingBound bound;
    private long outstanding;
    private boolean generatorEnded;

    MdfScheduler(OutstandingBound bound) {
        this.bound = bound;
    }

    @Override
    protected MdfTask svc(MdfTask task) {
        if (!fromFeedback()) {
            outstanding++;
            return dependencies.register(task) ? task : goOn();
        }
        dependencies.complete(task);
        ArrayList<MdfTask> waiting = task.successors;
        if (waiting != null) {
            for (int i = 0, n = waiting.size(); i < n; i++) {
                MdfTask next = waiting.get(i);
                if (--next.unmetDependencies == 0) {
                    sendOut(next);
                }
            }
        }
        forget(task);
        bound.release();
        outstanding--;
        return generatorEnded && outstanding == 0 ? eos() : goOn();
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
