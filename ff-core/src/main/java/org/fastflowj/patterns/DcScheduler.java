package org.fastflowj.patterns;

import org.fastflowj.core.Node;

/**
 * The emitter and loop head of a {@link DivideAndConquer} farm: keeps the tree of pending problems. It is
 * the only thread that touches a task's {@code pendingChildren} and its parent's {@code childResults}
 * while children are out, so the tree needs no synchronisation of its own.
 */
final class DcScheduler<P, R> extends Node<DcTask<P, R>, DcTask<P, R>> {
    private final P root;
    private boolean started;
    private R result;

    DcScheduler(P root) {
        this.root = root;
    }

    @Override
    protected DcTask<P, R> svc(DcTask<P, R> task) {
        if (task == null) { // the farm has no input: called once with null to start
            started = true;
            return new DcTask<>(null, -1, root);
        }
        if (task.step == DcTask.Step.DIVIDED) {
            return scatter(task);
        }
        if (task.parent == null) {
            result = task.result;
            return eos(); // the root is solved: nothing is left in flight, end the workers
        }
        return gather(task);
    }

    private DcTask<P, R> scatter(DcTask<P, R> task) {
        int count = task.children.size();
        task.childResults = new Object[count];
        task.pendingChildren = count;
        if (count == 0) { // nothing to wait for: combine an empty list right away
            task.step = DcTask.Step.COMBINE;
            task.children = null;
            return task;
        }
        for (int i = 0; i < count; i++) {
            sendOut(new DcTask<>(task, i, task.children.get(i)));
        }
        task.children = null;
        return goOn();
    }

    private DcTask<P, R> gather(DcTask<P, R> child) {
        DcTask<P, R> parent = child.parent;
        parent.childResults[child.slot] = child.result;
        if (--parent.pendingChildren > 0) {
            return goOn();
        }
        parent.step = DcTask.Step.COMBINE;
        return parent;
    }

    /** The root's result; valid once the run ended normally. */
    R result() {
        if (!started) {
            throw new IllegalStateException("DivideAndConquer: the run did not start");
        }
        return result;
    }
}
