package org.fastflowj.patterns.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the tasks of a {@link org.fastflowj.patterns.MacroDataFlow} run that are added but not done. One
 * thread (the generator) takes one credit per task and parks when none is left; the threads that
 * complete tasks give them back, each through a releaser slot of its own. With hysteresis: a parked
 * generator is woken only once half of the bound is free again, so a full bound costs one wake-up per
 * half bound of tasks, not one per task.
 *
 * <p>No lock and no shared atomic per task: the acquirer counts its credits on its own, each releaser
 * counts its releases in a slot on a cache line of its own, and the outstanding count is the difference,
 * read only when the acquirer's own estimate says the bound is full or a waiter is announced. The counts
 * only grow, so a sum read while others release is at most the true sum: an outstanding count computed
 * from it is never below the true one, and the last release before a quiet spell reads the exact sum.
 */
public final class OutstandingBound {
    /** Longs between two releasers' slots: 128 bytes, so two slots never share a cache line. */
    private static final int STRIDE = 16;

    /** In {@link #counts}: the credits taken, written by the acquirer only. */
    private static final int ACQUIRED = STRIDE;
    /** In {@link #counts}: the acquirer's last reading of the releases (outstanding is at most the difference). */
    private static final int RELEASED_SEEN = STRIDE + 1;

    private static final VarHandle WAITER;
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            WAITER = MethodHandles.lookup().findVarHandle(OutstandingBound.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int limit;
    private final int resumeAt;
    private final int releasers;
    /**
     * The counts, each writer's on cache lines of its own (padded on both sides), so that a count written
     * per task never shares a line with another thread's: the acquirer's at {@link #ACQUIRED} and {@link
     * #RELEASED_SEEN}, releaser {@code k}'s at {@code (k + 2) * STRIDE}.
     */
    private final long[] counts;

    /** Read by every release; written only around a park, so it stays in the releasers' caches. */
    @SuppressWarnings("unused") // through WAITER
    private volatile Thread waiter;

    /** With one releaser, slot 0. */
    public OutstandingBound(int limit) {
        this(limit, 1);
    }

    /**
     * @param limit credits
     * @param releasers releaser slots: each thread that gives credits back uses one of its own
     */
    public OutstandingBound(int limit, int releasers) {
        if (limit < 1 || releasers < 1) {
            throw new IllegalArgumentException(
                    "OutstandingBound(" + limit + ", " + releasers + "): at least 1 credit and 1 releaser");
        }
        this.limit = limit;
        this.resumeAt = limit / 2;
        this.releasers = releasers;
        this.counts = new long[(releasers + 3) * STRIDE];
    }

    /**
     * Takes a credit, parking while {@code limit} are taken. The acquiring thread only.
     *
     * @throws InterruptedException if the thread is interrupted while parked (the run was cancelled)
     */
    public void acquire() throws InterruptedException {
        long mine = counts[ACQUIRED];
        // only this thread acquires, so outstanding can only fall after these reads
        if (mine - counts[RELEASED_SEEN] >= limit) {
            long seen = releasedSum();
            if (mine - seen >= limit) {
                awaitResume();
                seen = releasedSum();
            }
            counts[RELEASED_SEEN] = seen;
        }
        COUNT.setRelease(counts, ACQUIRED, mine + 1); // read by releasers after WAITER or an end flag (volatile)
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
        // Dekker-style hand-shake with release(): this thread writes waiter then reads the release slots,
        // a releaser writes its slot then reads waiter, all volatile (sequentially consistent). Of the
        // last release and this check, one comes first: either this check sees that release and every
        // earlier one (room), or that releaser sees us, reads every slot after its own write, and unparks.
        WAITER.setVolatile(this, Thread.currentThread());
        if (outstanding() <= resumeAt) {
            WAITER.setVolatile(this, null);
            return true;
        }
        return false;
    }

    /** Gives a credit back through releaser slot 0. */
    public boolean release() {
        return release(0);
    }

    /**
     * Gives a credit back through slot {@code releaser}, which no other thread uses at the same time;
     * wakes the acquirer if it waits and enough room is free. Returns whether it woke it.
     */
    public boolean release(int releaser) {
        int slot = (releaser + 2) * STRIDE;
        long mine = counts[slot];
        COUNT.setVolatile(counts, slot, mine + 1);
        Thread parked = (Thread) WAITER.getVolatile(this);
        if (parked != null && outstanding() <= resumeAt) {
            LockSupport.unpark(parked);
            return true;
        }
        return false;
    }

    /**
     * Credits taken and not given back. Read by the acquirer, or by another thread while the acquirer
     * waits or takes no more (so the credits taken are fixed): never below the true count, and exact
     * when no release runs meanwhile.
     */
    public int outstanding() {
        long taken = (long) COUNT.getVolatile(counts, ACQUIRED);
        return (int) (taken - releasedSum());
    }

    private long releasedSum() {
        long sum = 0;
        for (int k = 0; k < releasers; k++) {
            sum += (long) COUNT.getVolatile(counts, (k + 2) * STRIDE);
        }
        return sum;
    }
}
