package org.fastflowj.core.runtime.channel;

import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.WaitStrategy;

/**
 * How one thread waits, step by step, by its run's {@link WaitStrategy} (Agrona's {@code IdleStrategy}
 * is the model): each failed check calls {@link #idle}, which spins, then yields, then parks on the
 * thread's {@link Parker}; work found calls {@link #reset}. Parks start at the policy's first park time
 * and double on every park that ends with nothing to do, up to {@link IdlePolicy#MAX_PARK_NANOS}: a
 * thread idle for seconds wakes a few times a second, not a thousand, and the one who hands it work
 * wakes it at once through the parker's handshake.
 *
 * <p>Threading: one instance per waiting thread; nothing here is shared. No allocation, no lock.
 */
public final class IdleStrategy {
    private final IdlePolicy policy;
    private int round;
    private long parkNanos;

    public IdleStrategy(IdlePolicy policy) {
        this.policy = policy;
        reset();
    }

    /**
     * The strategy for a wait outside a node loop (on a network link, on a caller's queue): the policy
     * of a run whose threads outnumber the cores, which parks soon, since such waits are rarely short.
     */
    public static IdleStrategy of(WaitStrategy strategy) {
        return new IdleStrategy(IdlePolicy.of(strategy, true));
    }

    /** Work was found: the next wait starts over with spins. */
    public void reset() {
        round = 0;
        parkNanos = policy.parkNanos();
    }

    /** Agrona's form: {@code workCount > 0} resets, otherwise one idle step without a parker's re-check. */
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (nextStepParks()) {
            LockSupport.parkNanos(this, parkNanos);
            parked();
        }
    }

    /**
     * One failed check of a wait nobody signals (a poll): spins, yields, or parks at most {@code
     * maxParkNanos}, which bounds how late the caller sees what it polls for.
     */
    public void idleAtMost(long maxParkNanos) {
        if (nextStepParks()) {
            LockSupport.parkNanos(this, Math.min(parkNanos, maxParkNanos));
            parked();
        }
    }

    /** One failed check: spins, yields, or parks on {@code parker} unless {@code ready} turns true. */
    public void idle(Parker parker, Parker.WaitCondition ready) {
        idle(parker, ready, Long.MAX_VALUE);
    }

    /** As {@link #idle(Parker, Parker.WaitCondition)}, parking at most {@code maxParkNanos}. */
    public void idle(Parker parker, Parker.WaitCondition ready, long maxParkNanos) {
        if (nextStepParks()) {
            parker.parkUnless(ready, Math.min(parkNanos, maxParkNanos));
            parked();
        }
    }

    /** Whether the next step parks (the spins and yields are over): a bridge is then told it idles. */
    public boolean parksNext() {
        return round >= policy.spinRounds() + policy.yieldRounds();
    }

    /** Spins or yields and returns false, or returns true: the caller parks now, then calls {@link #parked}. */
    boolean nextStepParks() {
        int r = round;
        if (r < policy.spinRounds()) {
            round = r + 1;
            Thread.onSpinWait();
            return false;
        }
        if (r < policy.spinRounds() + policy.yieldRounds()) {
            round = r + 1;
            Thread.yield();
            return false;
        }
        return true;
    }

    /** The numbers this strategy waits by. */
    public IdlePolicy policy() {
        return policy;
    }

    /** The time-out of the park the caller is about to make. */
    long parkNanos() {
        return parkNanos;
    }

    /** Whether that park is a long one: {@link Parker#LONG} goes into its announced kind. */
    public boolean longPark() {
        return parkNanos > policy.parkNanos();
    }

    /** After a park: the next one, if nothing turns up meanwhile, lasts twice as long (up to the cap). */
    void parked() {
        parkNanos = Math.min(IdlePolicy.MAX_PARK_NANOS, parkNanos * 2);
    }
}
