package org.fastflowj.patterns;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.fastflowj.core.Farm;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;

/**
 * Macro data-flow, as FastFlow's {@code ff_mdf} and the DF-Threads model: a generator adds tasks, each
 * declaring the objects it reads ({@link #in}), writes ({@link #out}) or both ({@link #inout}); a task
 * runs as soon as every earlier task it depends on has run, and independent tasks run in parallel.
 *
 * <pre>
 *                                   ┌──── ready successors a worker does not run itself ────┐
 *                                   ▼                                                        │
 *   generator ──ready tasks──▶ scheduler ──on demand──┬──▶ worker0 ── run, complete, run next ─┤
 *   (your code, links each                            └──▶ worker1 ── run, complete, run next ─┘
 *    task after its predecessors)
 * </pre>
 *
 * Dependencies are by object identity, in the order the tasks were added: a task depends on the last
 * earlier writer of each object it reads or writes (read-after-write, write-after-write) and, if it
 * writes an object, on every reader added since that writer (write-after-read). The generator runs
 * on a thread of its own, concurrently with the tasks, and is held back while {@code outstandingTasks}
 * tasks are added but not yet done, so a generator of millions of tasks holds only that many at a time.
 *
 * <p>Each task is a frame counting the predecessors it still waits for (DF-Threads' synchronisation
 * count). The generator links a new task after its predecessors and sends it to the scheduler only if
 * none is left; otherwise the worker that completes its last predecessor brings the count to zero and
 * runs it next itself, sending further successors made ready to the scheduler, which hands them to
 * whichever worker asks first. So a chain of dependent tasks runs on one worker without a hand-over.
 *
 * <p>Each {@link #run} starts the threads (generator, scheduler, workers) and ends them before returning,
 * whether it succeeds or fails; {@code run} can be called again, also from several threads at once.
 * {@link #close()} refuses further runs.
 *
 * <p>Threading: the generator calls {@code add} on the generator thread only. A task's writes are visible
 * to every task that depends on it, and to the caller once {@code run} returns: a task's completion
 * releases each successor's count with an atomic read-modify-write, and a hand-over between threads goes
 * through a channel, both of which order memory.
 */
public final class MacroDataFlow implements AutoCloseable {
    /** Default bound of tasks added but not yet done, as FastFlow's default {@code outstandingTasks}. */
    public static final int DEFAULT_OUTSTANDING_TASKS = 2048;

    /**
     * The backoff wait strategy. A run has two threads more than workers (generator and scheduler), so it
     * is oversubscribed and idle threads park after a short spin; unlike BLOCKING, a thread then wakes a
     * parked one once per few items it sends (or when it is about to wait itself) instead of once per
     * item, which at fine grain is most of a hand-over's cost.
     */
    public static final RunOptions DEFAULT_RUN_OPTIONS = RunOptions.defaults().waitStrategy(WaitStrategy.BACKOFF);

    /** How a task uses an object. */
    public enum Access {
        IN,
        OUT,
        INOUT;

        boolean writes() {
            return this != IN;
        }
    }

    /** An object a task uses, and how; made by {@link #in}, {@link #out} and {@link #inout}. */
    public record Param(Object object, Access access) {
        public Param {
            if (object == null) { // no message supplier: it would be a capture per parameter of every task
                throw new NullPointerException("MacroDataFlow: " + access + "(null): a parameter must be an object");
            }
            Objects.requireNonNull(access, "access");
        }
    }

    /**
     * A task's code as a function of its parameters' objects, which it gets in declared order: the
     * originals in the scheduler's group, copies in another group. A task that may run in another group
     * ({@link #addWorkerGroup}) is a kernel of a named class or record, with no state but what it needs
     * besides its parameters (a block size, say): it crosses groups by class name and fields, its
     * parameters by value, and what it writes comes back into the original objects. Its only effect is on
     * its written parameters: a task of a worker group that is lost runs again elsewhere.
     */
    @FunctionalInterface
    public interface Kernel {
        void run(Object[] params);
    }

    /** What a generator adds tasks to. */
    public interface TaskGraph {
        /** Adds a task, known in errors by its index (the number of tasks added before it in this run). */
        void add(Runnable task, Param... params);

        /** Adds a task known in errors by {@code name}. */
        void add(String name, Runnable task, Param... params);

        /** Adds a task given as a {@link Kernel}: the form that may run in another group. */
        void add(Kernel kernel, Param... params);

        /** Adds a kernel task known in errors by {@code name}. */
        void add(String name, Kernel kernel, Param... params);
    }

    /** The code that adds a run's tasks; it runs on a thread of its own. */
    @FunctionalInterface
    public interface TaskGenerator {
        void generate(TaskGraph graph) throws Exception;
    }

    private final int workers;
    private final int outstandingTasks;
    private final RunOptions options;
    private final MdfGroups groups = new MdfGroups();
    private volatile boolean closed;

    /** With {@link #DEFAULT_OUTSTANDING_TASKS} and {@link #DEFAULT_RUN_OPTIONS}. */
    public MacroDataFlow(int workers) {
        this(workers, DEFAULT_OUTSTANDING_TASKS);
    }

    /** With {@link #DEFAULT_RUN_OPTIONS}. */
    public MacroDataFlow(int workers, int outstandingTasks) {
        this(workers, outstandingTasks, DEFAULT_RUN_OPTIONS);
    }

    /**
     * @param workers worker threads (the generator and the scheduler take one more each)
     * @param outstandingTasks at most this many tasks are added but not done; the generator waits beyond
     * @param options how the threads wait and how large the channels are
     */
    public MacroDataFlow(int workers, int outstandingTasks, RunOptions options) {
        if (workers < 1) {
            throw new IllegalArgumentException("MacroDataFlow: workers must be >= 1, got " + workers);
        }
        if (outstandingTasks < 1) {
            throw new IllegalArgumentException("MacroDataFlow: outstandingTasks must be >= 1, got " + outstandingTasks);
        }
        this.workers = workers;
        this.outstandingTasks = outstandingTasks;
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Names the distributed group of this pattern's generator, scheduler and constructor's workers, as
     * {@link org.fastflowj.core.BuildingBlock#createGroup} does for a block. Only needed with {@link
     * #addWorkerGroup}.
     *
     * @return this pattern
     */
    public MacroDataFlow createGroup(String name) {
        groups.home(name);
        return this;
    }

    /**
     * Adds {@code workers} workers that run in distributed group {@code name}: with the program started as
     * groups ({@code DFF.init}, the launcher), tasks cross to them with their parameters and come back;
     * without, they run in this process like the others, so the same program runs either way. The scheduler
     * prefers its own group's workers (on demand: a remote worker gets a task when its group reports it took
     * the previous ones). Every task must then be a {@link Kernel} of a named class, and what a task writes
     * an array, a {@code List} or a {@code Map}; {@code add} says which task breaks this.
     *
     * <p>The run survives the loss of worker groups (a process killed, a host that stops answering): the
     * tasks a lost group had not answered run again on the workers left, from the inputs the scheduler's
     * group kept, so the result is the one without the loss. A kernel must therefore have no effect but on
     * its written parameters (a file it writes in a lost group would be written twice). Losing the
     * scheduler's group ({@link #createGroup}) fails the run.
     *
     * @return this pattern
     */
    public MacroDataFlow addWorkerGroup(String name, int workers) {
        groups.addWorkers(name, workers);
        return this;
    }

    /** The task reads {@code object}. */
    public static Param in(Object object) {
        return new Param(object, Access.IN);
    }

    /** The task writes {@code object} (without reading what earlier tasks wrote: still ordered after them). */
    public static Param out(Object object) {
        return new Param(object, Access.OUT);
    }

    /** The task reads and writes {@code object}. */
    public static Param inout(Object object) {
        return new Param(object, Access.INOUT);
    }

    /**
     * Runs {@code generator} and every task it adds; returns when all have run and every thread has ended.
     *
     * @throws MacroDataFlowException if a task or the generator threw: it names the task, the cause is the
     *     exception; the tasks not yet started are dropped and the run has ended
     * @throws IllegalStateException after {@link #close()}
     */
    public void run(TaskGenerator generator) {
        Objects.requireNonNull(generator, "generator");
        if (closed) {
            throw new IllegalStateException("MacroDataFlow: run after close");
        }
        boolean spansGroups = groups.spansGroups();
        int total = workers + groups.remoteWorkers();
        // in one process each worker completes tasks, across groups the scheduler does
        MdfRun state = new MdfRun(outstandingTasks, spansGroups ? 1 : total);
        List<MdfWorker> all = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            all.add(new MdfWorker(spansGroups ? null : state, i));
        }
        MdfScheduler scheduler =
                spansGroups ? new MdfScheduler(state, groups, workers) : new MdfScheduler(state, total);
        Farm farm = Farm.of(all).emitter(scheduler).onDemand().wrapAround();
        if (spansGroups) {
            // A task goes where its data is, if there is room. A lost worker group's tasks run again on the
            // workers left, placed again by the farm: the scheduler keeps each task it hands out, with its
            // inputs untouched until the task is complete (every later writer of them depends on it), and a
            // remote task writes nothing here until its result is back.
            farm.affinity(groups.workersOfGroups(workers), MdfScheduler::preferredGroupOf)
                    .recoverable();
        }
        Pipeline program = new Pipeline(new MdfGenerator(generator, state, outstandingTasks, groups), farm);
        groups.place(program, farm, all, workers);
        try {
            program.runOwnGroupOrInProcessAndWaitEnd(options); // a group only if this process runs as one
        } catch (NodeFailedException e) {
            if (e.getCause() instanceof MacroDataFlowException failed) {
                throw failed.rethrownHere(e); // with the caller's stack too
            }
            throw e;
        }
    }

    /** Refuses further runs; a run in progress goes on to its end. */
    @Override
    public void close() {
        closed = true;
    }
}
