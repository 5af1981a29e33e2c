package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.fastflowj.patterns.crossing.CrossingParameters;

/**
 * One task of a {@link MacroDataFlow} run: a frame, as a DF-Threads frame, that counts the earlier tasks
 * it still waits for (its synchronisation count) and lists the later tasks waiting for it. The generator
 * fills the final fields, counts the task's predecessors and appends it to their successor lists; the
 * thread that completes a task (a worker in one process) decrements each successor's count, and the one
 * that brings a count to zero owns that successor: it runs it or hands it out.
 *
 * <p>To a worker in another group the task itself is the message: only its non-transient fields cross
 * (index, name, kernel, and {@link #crossing}: the parameter values, which of them it writes, and each
 * object's identity and version, so that a value the group holds already crosses as a reference), so the
 * dependency graph never does. The copy a remote worker runs has no {@link #params}; it goes back with
 * only its written values ({@link MdfGroups#copyBack}).
 */
final class MdfTask {
    /** In {@link #successorState}: the task is done, its successor list closed. */
    private static final int DONE = 1 << 31;
    /**
     * The generator's hold on a new task's count while it links the task after its predecessors: as long
     * as it is in, no completion can bring the count to zero.
     */
    private static final int REGISTERING = 1 << 30;

    private static final VarHandle PENDING;
    private static final VarHandle SUCCESSOR_STATE;
    private static final VarHandle MORE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PENDING = lookup.findVarHandle(MdfTask.class, "pending", int.class);
            SUCCESSOR_STATE = lookup.findVarHandle(MdfTask.class, "successorState", int.class);
            MORE = lookup.findVarHandle(MdfTask.class, "more", MdfTask[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long index;
    final String name;
    /** The task as a {@link MacroDataFlow.Kernel} (which may cross groups), or null for a {@link #body}. */
    MacroDataFlow.Kernel kernel;
    /**
     * When workers span groups, what crosses besides the kernel: {@link #values} and {@link #written}, and
     * on the way out the objects' identities and versions; null in one process.
     */
    CrossingParameters crossing;

    /** The parameters' objects, in declared order: what a kernel gets (in another group: copies). */
    transient Object[] values;
    /** Per parameter: whether the task writes it (its value comes back from another group). */
    transient boolean[] written;
    /**
     * When workers span groups, in the scheduler's group: each parameter's object record, and the versions
     * {@link #crossing} carries, filled when the task is handed out ({@link #snapshotVersions}).
     */
    transient MdfObject[] objects;

    private transient long[] ids;
    private transient int[] versions;
    /**
     * The worker group the scheduler would rather hand the task to (the one that holds its data), or -1;
     * written before the task is handed out, read by whichever thread places it ({@code WorkerAffinity}),
     * after the hand-out channel's release.
     */
    transient int preferredGroup = -1;

    transient Runnable body;
    /** The declared parameters; null in a copy received from another group. */
    transient MacroDataFlow.Param[] params;

    /** Predecessor edges not yet released (plus {@link #REGISTERING} while the generator links the task). */
    @SuppressWarnings("unused") // through PENDING
    private transient volatile int pending;

    /** Successors published in {@link #first}, {@link #second}, {@link #more}; with {@link #DONE} once done. */
    @SuppressWarnings("unused") // through SUCCESSOR_STATE
    private transient volatile int successorState;

    // The successor list, written by the generator only, read by the completing thread only after DONE.
    private transient MdfTask first;
    private transient MdfTask second;
    private transient MdfTask[] more;
    /** Edges added by {@link #dependOn} since {@link #startRegistration}; generator only. */
    private transient int edges;

    MdfTask(long index, String name, Runnable body, MacroDataFlow.Param[] params) {
        this.index = index;
        this.name = name;
        this.body = body;
        this.params = params;
    }

    MdfTask(long index, String name, MacroDataFlow.Kernel kernel, MacroDataFlow.Param[] params) {
        this(index, name, (Runnable) null, params);
        this.kernel = kernel;
        this.values = new Object[params.length];
        this.written = new boolean[params.length];
        for (int i = 0; i < params.length; i++) {
            values[i] = params[i].object();
            written[i] = params[i].access().writes();
        }
    }

    /**
     * Generator, when workers span groups: room for the parameters' object records and versions, and the
     * {@link #crossing} that carries them with the values. Before the task is linked anywhere.
     */
    void prepareToCross() {
        int n = values.length;
        objects = new MdfObject[n];
        ids = new long[n];
        versions = new int[n];
        crossing = new CrossingParameters(values, written, ids, versions);
    }

    /** Generator: parameter {@code p} is the object {@code record} stands for. */
    void objectIs(int p, MdfObject record) {
        objects[p] = record;
        ids[p] = record.id;
    }

    /**
     * Scheduler, as it hands the task out: the version of each parameter's object now, which is the one
     * the task reads (every earlier writer is done, and a later one waits for this task).
     */
    void snapshotVersions() {
        for (int p = 0; p < objects.length; p++) {
            versions[p] = objects[p].version;
        }
    }

    /**
     * A copy received from another group: the values that crossed become its own (in a worker group, what
     * the kernel runs on; back in the scheduler's, what is copied into the originals).
     */
    void adoptCrossedParameters() {
        if (crossing != null) {
            values = crossing.values();
            written = crossing.writtenFlags();
        }
    }

    /** Whether this is a copy received from another group rather than the generator's task. */
    boolean isCopy() {
        return params == null;
    }

    /** Runs the task's code, a failure named after the task. */
    void runBody() {
        try {
            if (kernel != null) {
                kernel.run(values);
            } else {
                body.run();
            }
        } catch (RuntimeException | Error e) {
            throw MacroDataFlowException.taskFailed(this, e);
        }
    }

    /** Generator, before the task is linked anywhere. */
    void startRegistration() {
        edges = 0;
        PENDING.set(this, REGISTERING); // published by the first successful link's CAS
    }

    /**
     * Generator: makes this task wait for {@code earlier}, unless that is done already (or is this task,
     * which names an object twice). An edge met twice is counted twice and released twice.
     */
    void dependOn(MdfTask earlier) {
        if (earlier != this && earlier.addSuccessor(this)) {
            edges++;
        }
    }

    /**
     * Generator: ends the registration; returns whether the task is ready (every predecessor it linked
     * to is done already), in which case the caller owns it.
     */
    boolean endRegistration() {
        if (edges == 0) { // linked after nothing, so no other thread has seen the count
            PENDING.set(this, 0);
            return true;
        }
        int drop = edges - REGISTERING;
        return (int) PENDING.getAndAdd(this, drop) + drop == 0;
    }

    /** Generator only: appends {@code successor}, unless this task is done. */
    private boolean addSuccessor(MdfTask successor) {
        int count = (int) SUCCESSOR_STATE.getVolatile(this);
        if ((count & DONE) != 0) {
            return false;
        }
        if (count == 0) {
            first = successor;
        } else if (count == 1) {
            second = successor;
        } else {
            int at = count - 2;
            MdfTask[] rest = more;
            if (rest == null || at == rest.length) {
                rest = rest == null ? new MdfTask[4] : Arrays.copyOf(rest, 2 * at);
                // a completing thread may read the array through an earlier CAS: publish the copy whole
                MORE.setRelease(this, rest);
            }
            rest[at] = successor;
        }
        // The plain writes above happen before this CAS; complete()'s getAndBitwiseOr reads its value (or a
        // later one), so the completing thread sees every successor it counts. If the task completed in
        // between, the CAS fails and the slot just written is never read.
        return SUCCESSOR_STATE.compareAndSet(this, count, count + 1);
    }

    /** Whether the task is done (read by the generator, for its bookkeeping). */
    boolean isDone() {
        return ((int) SUCCESSOR_STATE.getAcquire(this) & DONE) != 0;
    }

    /** Where {@link #complete} puts the successors that became ready, but the first. */
    interface ReadySink {
        void ready(MdfTask task);
    }

    /**
     * Marks the task done and releases its successors. Returns the first one whose count this brings to
     * zero (the caller's to run), or null; each further one goes to {@code others}. Called once, by the
     * thread that ran the task (or, across groups, the scheduler).
     *
     * <p>Memory order: the task's writes happen before the getAndAdd on each successor's count; the thread
     * that brings a count to zero reads the result of every earlier decrement (volatile read-modify-writes
     * of one variable are totally ordered, each synchronises with the next), so all the predecessors' writes
     * happen before it runs the successor or hands it over through a channel.
     */
    MdfTask complete(ReadySink others) {
        int count = (int) SUCCESSOR_STATE.getAndBitwiseOr(this, DONE);
        MdfTask ready = null;
        if (count > 0) {
            ready = release(first, null, others);
            if (count > 1) {
                ready = release(second, ready, others);
                MdfTask[] rest = (MdfTask[]) MORE.getAcquire(this);
                for (int i = 0; i < count - 2; i++) {
                    ready = release(rest[i], ready, others);
                }
            }
        }
        // a done task is still referenced by the generator's bookkeeping: drop what it would keep alive
        // (not more, which the generator may be growing for a link that is about to fail)
        first = null;
        second = null;
        body = null;
        return ready;
    }

    /** Releases one edge; returns the caller's task to run (the first that became ready). */
    private static MdfTask release(MdfTask successor, MdfTask firstReady, ReadySink others) {
        if ((int) PENDING.getAndAdd(successor, -1) != 1) {
            return firstReady;
        }
        if (firstReady == null) {
            return successor;
        }
        others.ready(successor);
        return firstReady;
    }

    @Override
    public String toString() {
        return name != null ? "task '" + name + "' (#" + index + ")" : "task #" + index;
    }
}
