package org.fastflowj.patterns;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.fastflowj.core.Node;

/**
 * The source stage of a {@link MacroDataFlow} run: calls the user's generator once, on this node's
 * thread; for each task it adds, waits for a credit of the outstanding bound, links the task after the
 * tasks it depends on ({@link DataDependencies}) and sends it to the scheduler if it is ready at once.
 * A task that waits is handed out later by whoever completes its last predecessor.
 */
final class MdfGenerator extends Node<Void, MdfTask> implements MacroDataFlow.TaskGraph {
    private final MacroDataFlow.TaskGenerator generator;
    private final MdfRun run;
    private final DataDependencies dependencies;
    private long added;
    /** The thread running the user's generator, while it runs; {@code add} is refused on any other. */
    private Thread generatorThread;
    /** What the run-time threw from sendOut (a cancellation): it passes through unwrapped. */
    private RuntimeException fromRunTime;

    private final MdfGroups groups;

    MdfGenerator(MacroDataFlow.TaskGenerator generator, MdfRun run, int outstandingTasks, MdfGroups groups) {
        this.generator = generator;
        this.run = run;
        this.dependencies = new DataDependencies(outstandingTasks, groups.spansGroups());
        this.groups = groups;
    }

    @Override
    protected MdfTask svc(Void none) {
        generatorThread = Thread.currentThread();
        try {
            generator.generate(this);
        } catch (RuntimeException e) {
            throw e == fromRunTime || e instanceof CancellationException
                    ? e
                    : MacroDataFlowException.generatorFailed(e);
        } catch (Exception | Error e) {
            throw MacroDataFlowException.generatorFailed(e);
        } finally {
            generatorThread = null;
        }
        if (run.generatorEnds()) {
            sendOut(MdfRun.END);
        }
        return eos();
    }

    @Override
    public void add(Runnable task, MacroDataFlow.Param... params) {
        add(null, task, params);
    }

    @Override
    public void add(String name, Runnable task, MacroDataFlow.Param... params) {
        Objects.requireNonNull(task, "task");
        submit(new MdfTask(added, name, task, checked(params)));
    }

    @Override
    public void add(MacroDataFlow.Kernel kernel, MacroDataFlow.Param... params) {
        add(null, kernel, params);
    }

    @Override
    public void add(String name, MacroDataFlow.Kernel kernel, MacroDataFlow.Param... params) {
        Objects.requireNonNull(kernel, "kernel");
        submit(new MdfTask(added, name, kernel, checked(params)));
    }

    private MacroDataFlow.Param[] checked(MacroDataFlow.Param... params) {
        if (Thread.currentThread() != generatorThread) {
            throw new IllegalStateException("MacroDataFlow: add outside of its run's generator (called on "
                    + Thread.currentThread().getName() + "): add tasks from the generator's thread only");
        }
        MacroDataFlow.Param[] copy = params.clone(); // the caller may reuse its array
        for (MacroDataFlow.Param param : copy) {
            if (param == null) { // no message supplier: it would be a capture on every add
                throw new NullPointerException("MacroDataFlow: a null parameter in task #" + added);
            }
        }
        return copy;
    }

    private void submit(MdfTask task) {
        if (groups.checkCrossing(task)) {
            task.prepareToCross();
        }
        try {
            run.bound.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException(e.getMessage());
        }
        try {
            added++;
            if (dependencies.register(task)) {
                sendOut(task);
            }
        } catch (RuntimeException e) {
            fromRunTime = e;
            throw e;
        }
    }
}
