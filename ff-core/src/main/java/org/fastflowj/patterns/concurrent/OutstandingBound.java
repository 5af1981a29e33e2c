package org.fastflowj.patterns.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the tasks of a {@link org.fastflowj.patterns.MacroDataFlow} run that are added but not done. The generator thread takes
 * one credit per task and parks when none is left; the scheduler gives one back per task done. With
 * hysteresis: a parked generator is woken only once half of the bound is free again, so a full bound
 * costs one wake-up per half bound of tasks, not one per task.
 *
 * <p>One thread acquires; any threads release (the workers that complete tasks). No lock; one atomic add
 * per task on each side.
 */
public final class OutstandingBound {
    private static final VarHandle OUTSTANDING;
    private static final VarHandle WAITER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OUTSTANDING = lookup.findVarHandle(OutstandingBound.class, "outstanding", int.class);
            WAITER = lookup.findVarHandle(OutstandingBound.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int limit;
    private final int resumeAt;

    @SuppressWarnings("unused") // accessed through OUTSTANDING
    private volatile int outstanding;

    @SuppressWarnings("unused") // accessed through WAITER
    private volatile Thread waiter;

    public OutstandingBound(int limit) {
        this.limit = limit;
        this.resumeAt = limit / 2;
    }

    /**
     * Takes a credit, parking while {@code limit} are taken.
     *
     * @throws InterruptedException if the thread is interrupted while parked (the run was cancelled)
     */
    public void acquire() throws InterruptedException {
        // only this thread adds, so outstanding can only fall between the read and the add
        if ((int) OUTSTANDING.getVolatile(this) >= limit) {
            awaitResume();
        }
        OUTSTANDING.getAndAdd(this, 1);
    }

    private void awaitResume() throws InterruptedException {
        while (!announceAndRecheck()) {
            LockSupport.park(this);
            WAITER.setVolatile(this, null);
            if (Thread.interrupted()) {
                throw new InterruptedException("MacroDataFlow: the run was cancelled while the generator waited");
            }
        }
    }

    /**
     * Announces the calling thread as waiting, then re-checks: true (and no longer announced) if half of
     * the bound is free, false if the caller must park.
     */
    public boolean announceAndRecheck() {
        // Dekker-style hand-shake with release(): this thread writes waiter then reads outstanding, the
        // releaser writes outstanding then reads waiter, all volatile (sequentially consistent), so at least
        // one of the two sees the other's write: either we see room, or the releaser sees us and unparks.
        WAITER.setVolatile(this, Thread.currentThread());
        if ((int) OUTSTANDING.getVolatile(this) <= resumeAt) {
            WAITER.setVolatile(this, null);
            return true;
        }
        return false;
    }

    /** Credits taken and not given back (a volatile read). */
    public int outstanding() {
        return (int) OUTSTANDING.getVolatile(this);
    }

    /** Gives a credit back; wakes the generator if it waits and enough room is free. Returns whether it woke it. */
    public boolean release() {
        int now = (int) OUTSTANDING.getAndAdd(this, -1) - 1;
        if (now <= resumeAt) {
            Thread parked = (Thread) WAITER.getVolatile(this);
            if (parked != null) {
                LockSupport.unpark(parked);
                return true;
            }
        }
        return false;
    }
}
