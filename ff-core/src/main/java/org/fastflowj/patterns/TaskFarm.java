package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;

/**
 * Independent tasks run by a farm of workers, with a barrier (FastFlow's {@code ff_taskf}): the caller adds
 * tasks, which start at once on whichever worker is free, and {@link #waitAll()} returns when every task
 * added so far has run. The farm is started once and reused round after round; between rounds its workers
 * park at no CPU cost.
 *
 * <pre>
 *   try (TaskFarm tasks = new TaskFarm(4)) {
 *       for (File f : files) {
 *           tasks.addTask(() -&gt; index(f));
 *       }
 *       tasks.waitAll(); // every index(f) has run
 *   }
 * </pre>
 *
 * <p>Tasks may run in any order and in parallel; for tasks that depend on one another use {@link
 * MacroDataFlow}, for tasks that split into subtasks {@link DivideAndConquer}.
 *
 * <p>Threading: one thread adds the tasks of a round and waits for them, as in FastFlow (the farm's input
 * is a single-producer channel). A round starts with the first {@code addTask} after a {@code waitAll}; until
 * its {@code waitAll} returns, a call from any other thread, a task among them, fails with {@link
 * IllegalStateException}. Another thread may take the next round. {@code addTask} waits while the farm's
 * input channel is full ({@link RunOptions#queueCapacity()} tasks), never for a task to end.
 *
 * <p>Failures: a task that throws does not stop the others; {@code waitAll} then throws a {@link
 * TaskFarmException} for the lowest-numbered failed task of the round, with the other failures
 * suppressed on it, and the farm stays usable.
 *
 * <p>Design: an on-demand farm without a collector, fed through an {@link Accelerator}. Nothing flows back
 * per task: each worker counts the tasks it finished on one shared counter and wakes the waiting caller
 * after the round's last one, so no output stage handles every task and the caller takes no results. The
 * carriers that take tasks to the workers sit in a ring and are refilled once their worker marked them
 * finished, so adding a task allocates nothing once the ring is warm.
 */
public final class TaskFarm implements AutoCloseable {
    /**
     * Backoff waits and FastFlow's 2048 outstanding tasks. A round is a stream of tasks, so a worker that
     * spins and yields a little before it parks takes the next task without a wake-up (with blocking waits
     * each task of a microsecond paid one), and between rounds it parks like the others.
     */
    public static final RunOptions DEFAULT_RUN_OPTIONS =
            RunOptions.defaults().waitStrategy(WaitStrategy.BACKOFF).queueCapacity(2048);

    private static final VarHandle USER;

    static {
        try {
            USER = MethodHandles.lookup().findVarHandle(TaskFarm.class, "user", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Accelerator<FarmTask, Void> accelerator;
    private final Thread[] workerThreads;

    /** Tasks finished since the farm started, counted by the workers. */
    private final AtomicLong done = new AtomicLong();
    /** The count of finished tasks that ends the round waitAll waits for; -1 while nobody waits. */
    private volatile long target = -1;

    /** What waitAll waits for: the round's last task counted. */
    private final BooleanSupplier roundDone = () -> done.get() == target;
    /** Failures of the round in progress, added by the workers before they count the task as done. */
    private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();

    /** The thread of the round in progress, or null between rounds; claimed by CAS, released by waitAll. */
    @SuppressWarnings("unused") // through USER
    private volatile Thread user;

    private volatile boolean closed;

    // Touched only by the round's thread; the claim's CAS and release order one round's writes before the next's.
    private final FarmTask[] carriers;
    /** Tasks added since the farm started. */
    private long submitted;
    /** {@link #submitted} when the round in progress began. */
    private long roundStart;

    /** One worker per available processor. */
    public TaskFarm() {
        this(Runtime.getRuntime().availableProcessors());
    }

    /** With {@link #DEFAULT_RUN_OPTIONS}. */
    public TaskFarm(int workers) {
        this(workers, DEFAULT_RUN_OPTIONS);
    }

    /**
     * {@code workers} workers, on-demand (a task goes to a free worker), run with {@code options} (wait
     * strategy, input channel capacity, thread mapping).
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public TaskFarm(int workers, RunOptions options) {
        if (workers < 1) {
            throw new IllegalArgumentException("TaskFarm(" + workers + "): at least 1 worker is needed");
        }
        Objects.requireNonNull(options, "options");
        // room for every task that can be in flight (the input channel, the emitter's staging, the workers'
        // slots) with some to spare, so a carrier found unfinished is rare; finding one only costs a new one
        int ring = (int) Math.min(Math.max(4L * options.queueCapacity(), 64), 1 << 16);
        carriers = new FarmTask[Integer.highestOneBit(ring - 1) << 1];
        workerThreads = new Thread[workers];
        List<TaskFarmWorker> farmWorkers = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            farmWorkers.add(new TaskFarmWorker(w, this));
        }
        // in process: a task is a shared object, never a copy (a serialization check would copy it)
        accelerator = Accelerator.startInProcess(Farm.of(farmWorkers).onDemand(), options);
    }

    public int workers() {
        return workerThreads.length;
    }

    /**
     * Adds a task; it starts as soon as a worker is free.
     *
     * @throws IllegalStateException from a thread other than the round's, or after {@link #close()}
     */
    public void addTask(Runnable task) {
        addTask(null, task);
    }

    /** As {@link #addTask(Runnable)}, the task known in a {@link TaskFarmException} by {@code name}. */
    public void addTask(String name, Runnable task) {
        Objects.requireNonNull(task, "task");
        if (closed) {
            throw new IllegalStateException("TaskFarm.addTask after close(): its workers have ended");
        }
        claim("addTask");
        long next = submitted;
        int slot = (int) next & (carriers.length - 1);
        FarmTask carrier = carriers[slot];
        if (carrier == null || !carrier.isFinished()) {
            carrier = new FarmTask();
            carriers[slot] = carrier;
        }
        accelerator.offload(carrier.fill(task, name, next - roundStart));
        submitted = next + 1;
    }

    /**
     * Waits until every task added so far has run (FastFlow's {@code wait()}); returns at once if none
     * was added. The next {@code addTask} starts a new round.
     *
     * @throws TaskFarmException if a task of this round threw (the farm stays usable)
     * @throws IllegalStateException from a thread other than the round's
     * @throws CancellationException if interrupted while waiting: the farm is then cancelled (the tasks
     *     running go on to their end, no other starts) and later calls fail
     */
    public void waitAll() {
        Thread me = Thread.currentThread();
        Thread owner = (Thread) USER.getVolatile(this);
        if (owner == null) {
            return; // no round in progress: nothing added since the last waitAll
        }
        if (owner != me) {
            throw inUse("waitAll", me, owner);
        }
        long all = submitted;
        try {
            awaitDone(all);
            rethrowFailures();
        } finally {
            if (done.get() == all) {
                roundStart = all;
                USER.setVolatile(this, null);
            }
        }
    }

    /**
     * Waits for the tasks of a round in progress ({@link #waitAll()}, rethrowing their failures), then ends
     * the workers; later calls do nothing.
     *
     * @throws IllegalStateException from inside one of its own tasks, or while another thread's round is in
     *     progress
     */
    @Override
    public void close() {
        Thread me = Thread.currentThread();
        for (Thread worker : workerThreads) {
            if (worker == me) {
                throw new IllegalStateException("TaskFarm.close() from inside one of its own tasks");
            }
        }
        if (closed) {
            return;
        }
        claim("close");
        closed = true;
        try {
            waitAll();
        } finally {
            USER.compareAndSet(this, me, null);
            accelerator.close();
        }
    }

    @Override
    public String toString() {
        return "TaskFarm(" + workers() + " workers)";
    }

    void workerStarted(int index, Thread thread) {
        // read only to refuse a call from this very thread, so a plain write is enough
        workerThreads[index] = thread;
    }

    /** On a worker, after its task ran (and threw {@code failure}, or null). */
    void taskDone(FarmTask task, Throwable failure) {
        if (failure != null) {
            failures.add(new Failure(task.index, task.name, failure));
        }
        task.finish();
        // The increment (a full fence) publishes the failure before the caller can see the count. Reading
        // target after it pairs with awaitDone, which writes target before it reads the count: one of the two
        // sees the other's write, so the caller cannot park for a round that has just ended (Dekker).
        if (done.incrementAndGet() == target) {
            accelerator.wakeWaiter();
        }
    }

    /** The caller waits by the run's wait strategy until the worker that counts the round's last task wakes it. */
    private void awaitDone(long all) {
        if (done.get() == all) {
            return;
        }
        target = all;
        try {
            if (accelerator.awaitUntil(roundDone)) {
                return;
            }
            if (Thread.interrupted()) {
                accelerator.cancel();
                throw new CancellationException(
                        "TaskFarm.waitAll interrupted: the farm is cancelled (running tasks go on to their end)");
            }
            throw new IllegalStateException(
                    "the TaskFarm's workers ended with " + (all - done.get()) + " tasks not run");
        } finally {
            target = -1;
        }
    }

    private void rethrowFailures() {
        if (failures.isEmpty()) {
            return;
        }
        List<Failure> round = new ArrayList<>(failures);
        failures.clear();
        Failure first = round.get(0);
        for (Failure f : round) {
            if (f.index < first.index) {
                first = f;
            }
        }
        TaskFarmException e = new TaskFarmException(first.index, first.name, first.cause);
        for (Failure f : round) {
            if (f != first) {
                e.addSuppressed(f.cause);
            }
        }
        throw e;
    }

    /** Makes the calling thread the round's, or refuses it if another thread's round is in progress. */
    private void claim(String call) {
        Thread me = Thread.currentThread();
        Thread owner = (Thread) USER.getVolatile(this);
        if (owner == me || (owner == null && USER.compareAndSet(this, null, me))) {
            return;
        }
        throw inUse(call, me, (Thread) USER.getVolatile(this));
    }

    private IllegalStateException inUse(String call, Thread me, Thread owner) {
        for (Thread worker : workerThreads) {
            if (worker == me) {
                return new IllegalStateException("TaskFarm." + call + " from inside one of its own tasks: a task"
                        + " cannot add tasks (use MacroDataFlow or DivideAndConquer for tasks that make tasks)");
            }
        }
        return new IllegalStateException("TaskFarm." + call + " from " + me.getName() + " while "
                + (owner == null ? "another thread" : owner.getName())
                + "'s round is in progress: one thread adds a round's tasks and waits for them");
    }

    /** A task's failure, as the worker saw it; made into an exception on the caller's thread. */
    private record Failure(long index, String name, Throwable cause) {}
}
