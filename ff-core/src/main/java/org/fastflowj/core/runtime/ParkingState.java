package org.fastflowj.core.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * 128 bytes, so the park state below never shares a cache line with the object before it. The int takes
 * the 4-byte hole after the object header, which the JVM would otherwise fill with {@code state}.
 */
@SuppressWarnings("unused")
abstract class ParkingStatePadBefore {
    private int holeFiller;
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Whether a node thread is parked, and on what. Other threads read {@link #state} once per item they
 * hand over (to know whether to wake this thread), so it sits between padding, away from the node's own
 * per-item counters, and is written only around a park.
 *
 * <p>Wake-up protocol. The sleeper writes {@link #waitTarget}, then {@code state} (volatile), then
 * re-checks its queues and parks. The other side offers or polls, then reads {@code state}. A JCTools
 * offer is a release store, not a full fence, so the two sides can miss each other (store-load
 * reordering). Three things bound that race: each side issues a full fence every 64 items and before it
 * parks itself (and then wakes whoever needs it), and every park has a time-out.
 */
abstract class ParkingState extends ParkingStatePadBefore {
    static final int RUNNING = 0;
    static final int WAIT_INPUT = 1;
    static final int WAIT_OUTPUT = 2;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ParkingState.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile int state;
    /** The channel the thread waits on, or null for "any of them"; written before {@code state}. */
    SpscChannel waitTarget;

    volatile Thread thread;

    final Thread thread() {
        return thread;
    }

    /** Called by a producer that just offered to {@code channel}. */
    final void wakeForItem(SpscChannel channel) {
        SpscChannel target = waitTarget;
        if ((target == null || target == channel) && STATE.compareAndSet(this, WAIT_INPUT, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }

    /** Called by a consumer that just polled {@code channel}. */
    final void wakeForRoom(SpscChannel channel) {
        SpscChannel target = waitTarget;
        if ((target == null || target == channel)
                && channel.belowLowWater()
                && STATE.compareAndSet(this, WAIT_OUTPUT, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }

    /** Wakes the thread whatever it waits on (its channel ended, or the run was cancelled). */
    final void wakeAnyway() {
        int s = state;
        if (s != RUNNING && STATE.compareAndSet(this, s, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }
}

/** 128 bytes, so the node's own per-item fields below never share a line with the park state. */
@SuppressWarnings("unused")
abstract class ParkingStatePadAfter extends ParkingState {
    private long q00, q01, q02, q03, q04, q05, q06, q07;
    private long q10, q11, q12, q13, q14, q15, q16, q17;
}
