package org.fastflowj.core.runtime.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * 128 bytes, so the park state below never shares a cache line with the object before it. The int takes
 * the 4-byte hole after the object header, which the JVM would otherwise fill with {@code state}.
 */
@SuppressWarnings("unused")
abstract class ParkerPadBefore {
    private int holeFiller;
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Where one thread parks when it has nothing to do, and how another thread wakes it: the one wake-up
 * handshake of the run-time, used by node threads, the accelerator's caller, and ff-dist's receivers and
 * senders. Other threads read {@link #state} after each thing they hand over, so it sits between padding
 * and is written only around a park.
 *
 * <p>The handshake (Dekker's): each side writes its own variable, issues a full fence, then reads the
 * other's.
 *
 * <pre>
 *   waiter                                    waker
 *   state = kind        (opaque)              publish (queue offer, flag, counter)
 *   fullFence                                 fullFence            ({@link #wake()})
 *   re-check what it waits for                read state
 *   if still missing: parkNanos               if not RUNNING: CAS to RUNNING, unpark
 *   state = RUNNING
 * </pre>
 *
 * <p>With both fences one of the two sees the other: either the re-check finds what was published, or
 * the waker finds the thread announced and unparks it (an unpark before the park makes the park return
 * at once). {@code ParkerTests} in ff-stress proves it. Node loops skip the waker's fence on most items
 * (an offer is a release store; a fence per item would cost a large share of a pipeline's throughput): they
 * fence one item in 64 and before they wait themselves, and a wake-up missed in between costs at most the
 * waiter's park time-out, never a hang.
 *
 * <p>Subclasses only add fields behind the trailing padding (a node runner); {@link #create()} makes a
 * stand-alone one.
 */
public class Parker extends ParkerPadBefore {
    /** Not parked. */
    public static final int RUNNING = 0;
    /** Parked for an item on an input (a node thread) or for news of any kind (other waiters). */
    public static final int WAIT_INPUT = 1;
    /** Parked for room on an output. */
    public static final int WAIT_OUTPUT = 2;
    /**
     * Or-ed into the kind when the park is long (the waiter has been idle a while): a producer then wakes
     * it for a single item instead of waiting for a batch, so the first item after a pause goes straight
     * through.
     */
    public static final int LONG = 4;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Parker.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public volatile int state;
    /** The channel a node thread waits on, or null for "any of them"; written before {@code state}. */
    public SpscChannel waitTarget;

    public volatile Thread thread;

    Parker() {}

    /** A parker for the calling thread's waits, padded against false sharing. */
    public static Parker create() {
        return new Standalone();
    }

    final Thread thread() {
        return thread;
    }

    /**
     * Waiter: parks the calling thread up to {@code nanos} unless {@code ready} answers true once the park
     * is announced. Returns at once if woken, interrupted or timed out; the caller re-checks.
     */
    public final void parkUnless(WaitCondition ready, long nanos) {
        thread = Thread.currentThread();
        park(WAIT_INPUT | LONG, null, ready, nanos);
    }

    /**
     * Waiter: the waiter's half of the handshake, the one park of the run-time. Announces a wait of {@code
     * kind} on {@code target} (null: any channel, or news of any kind), re-checks {@code arrived}, and parks
     * up to {@code nanos} unless it answers true; returns when woken, interrupted or timed out, and the
     * caller checks again.
     */
    final void park(int kind, SpscChannel target, WaitCondition arrived, long nanos) {
        waitTarget = target;
        announce(kind);
        if (!arrived.ready()) {
            LockSupport.parkNanos(this, nanos);
        }
        running();
    }

    /** Waiter: the first half of the handshake; the caller re-checks, parks, then calls {@link #running}. */
    public final void announce(int kind) {
        STATE.setOpaque(this, kind);
        VarHandle.fullFence(); // the announcement before the re-check: the waiter's half of the handshake
    }

    /** Waiter: back from a park (a waker's CAS may have done this already). */
    final void running() {
        STATE.setOpaque(this, RUNNING);
    }

    /** Waker: after publishing what the waiter waits for, wakes it if it parked (or is about to). */
    public final void wake() {
        VarHandle.fullFence(); // the publication before the state read: the waker's half of the handshake
        wakeAnyway();
    }

    /** Wakes the thread whatever it waits on (its channel ended, the run was cancelled, fenced before). */
    public final void wakeAnyway() {
        int s = state;
        if (s != RUNNING && STATE.compareAndSet(this, s, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }

    /** Whether the thread parked or is about to (a plain read, for a waker that fences only then). */
    public final boolean isParked() {
        return state != RUNNING;
    }

    /** Whether state {@code s} is a wait for input (short or long). */
    static boolean waitsForInput(int s) {
        return (s & WAIT_INPUT) != 0;
    }

    /** Whether state {@code s} is a wait for room on an output (short or long). */
    static boolean waitsForRoom(int s) {
        return (s & WAIT_OUTPUT) != 0;
    }

    /**
     * Called by a producer that just offered to {@code channel} (the caller decided the fence and whether
     * the queued items are worth it).
     */
    public final void wakeForItem(SpscChannel channel) {
        SpscChannel target = waitTarget;
        int s = state;
        if (waitsForInput(s) && (target == null || target == channel) && STATE.compareAndSet(this, s, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }

    /** Called by a consumer that just polled {@code channel}. */
    public final void wakeForRoom(SpscChannel channel) {
        SpscChannel target = waitTarget;
        int s = state;
        if (waitsForRoom(s)
                && (target == null || target == channel)
                && channel.belowLowWater()
                && STATE.compareAndSet(this, s, RUNNING)) {
            LockSupport.unpark(thread);
        }
    }

    /** What a stand-alone parker's waiter waits for; checked after the park is announced. */
    @FunctionalInterface
    public interface WaitCondition {
        boolean ready();
    }

    /** A parker of its own, padded at both ends. */
    @SuppressWarnings("unused")
    private static final class Standalone extends ParkerPadAfter {
        private long r00, r01, r02, r03, r04, r05, r06, r07;
        private long r10, r11, r12, r13, r14, r15, r16, r17;
    }
}

/** 128 bytes, so the node's own per-item fields below never share a line with the park state. */
@SuppressWarnings("unused")
abstract class ParkerPadAfter extends Parker {
    private long q00, q01, q02, q03, q04, q05, q06, q07;
    private long q10, q11, q12, q13, q14, q15, q16, q17;
}
