package org.fastflowj.core.runtime.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What a runner's side spent waiting (for input, or for room), readable while a wait is still under way:
 * a node that has waited for its input for a minute shows that minute on the live page now, not when an
 * item finally comes.
 *
 * <p>Threading: the runner's thread writes, once at the start and once at the end of a wait, never per
 * item. The start is an opaque store (no fence on the wait path); a reader sees it soon, which is all a
 * statistic read once a second needs. {@link #blockedNanosNow} may count a wait that is just ending
 * twice for an instant (its end added, its start not yet cleared): a live view's reading, exact once the
 * thread ended.
 */
abstract class WaitTime extends PartPadding {
    private static final VarHandle WAITING_SINCE;

    static {
        try {
            WAITING_SINCE = MethodHandles.lookup().findVarHandle(WaitTime.class, "waitingSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The waits that ended, in nanoseconds. */
    long blockedNanos;

    /** When the wait under way began ({@link System#nanoTime}), 0 while none is. */
    @SuppressWarnings("unused") // read and written through WAITING_SINCE
    private long waitingSince;

    /** A wait began at {@code start}. */
    final void waitBegan(long start) {
        WAITING_SINCE.setOpaque(this, start == 0 ? 1 : start);
    }

    /** The wait that began at {@code start} ended. */
    final void waitEnded(long start) {
        blockedNanos += System.nanoTime() - start;
        WAITING_SINCE.setOpaque(this, 0L);
    }

    /** The waits that ended and the one under way, from any thread. */
    final long blockedNanosNow() {
        long since = (long) WAITING_SINCE.getOpaque(this);
        long ended = blockedNanos;
        return since == 0 ? ended : ended + Math.max(0, System.nanoTime() - since);
    }
}
