package org.fastflowj.patterns;

import java.util.Arrays;
import java.util.List;
import org.fastflowj.core.Node;

/** A {@link DivideAndConquer} worker: solves or divides a problem, or combines results; sends it back. */
final class DcWorker<P, R> extends Node<DcTask<P, R>, DcTask<P, R>> {
    private final DivideAndConquer<P, R> dc;

    DcWorker(DivideAndConquer<P, R> dc) {
        this.dc = dc;
    }

    @Override
    protected DcTask<P, R> svc(DcTask<P, R> task) {
        if (task.step == DcTask.Step.COMBINE) {
            combine(task);
        } else if (isBase(task.problem)) {
            solve(task);
        } else {
            divide(task);
        }
        return task; // the worker's only output is the feedback channel to the scheduler
    }

    private boolean isBase(P problem) {
        try {
            return dc.isBase(problem);
        } catch (RuntimeException | Error e) {
            throw new DivideAndConquerException("isBase", e);
        }
    }

    private void solve(DcTask<P, R> task) {
        try {
            task.result = dc.solve(task.problem);
        } catch (RuntimeException | Error e) {
            throw new DivideAndConquerException("solve", e);
        }
        task.problem = null;
        task.step = DcTask.Step.DONE;
    }

    private void divide(DcTask<P, R> task) {
        List<? extends P> children;
        try {
            children = dc.divide(task.problem);
        } catch (RuntimeException | Error e) {
            throw new DivideAndConquerException("divide", e);
        }
        if (children == null) {
            throw new DivideAndConquerException(
                    "divide", new NullPointerException("divide returned null; return List.of() for no sub-problems"));
        }
        task.children = children;
        task.problem = null; // the sub-problems carry what is needed from here on
        task.step = DcTask.Step.DIVIDED;
    }

    @SuppressWarnings("unchecked")
    private void combine(DcTask<P, R> task) {
        List<R> results = (List<R>) Arrays.asList(task.childResults);
        try {
            task.result = dc.combine(results);
        } catch (RuntimeException | Error e) {
            throw new DivideAndConquerException("combine", e);
        }
        task.childResults = null;
        task.step = DcTask.Step.DONE;
    }
}
