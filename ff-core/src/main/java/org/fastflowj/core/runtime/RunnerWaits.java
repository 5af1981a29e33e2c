package org.fastflowj.core.runtime;

import static org.fastflowj.core.runtime.Parker.LONG;
import static org.fastflowj.core.runtime.Parker.WAIT_INPUT;
import static org.fastflowj.core.runtime.Parker.WAIT_OUTPUT;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link NodeRunner} waits: its {@link IdleStrategy} steps, and the re-checks that make parking
 * safe. A thread announces a park in its {@link Parker} (the runner itself), re-checks that what it waits
 * for is still missing (asking the side that waits: {@link InputChannels#worthWaking}, {@link
 * OutputChannels#roomOrGone}), and parks with a time-out; before parking it wakes every neighbour a
 * skipped fence may have left asleep, on both sides (see {@link Parker}). A short park (the first of a
 * wait) waits for a batch of items; a long one is announced with {@link Parker#LONG}, so a single item
 * wakes it.
 *
 * <p>Threading: the node thread only; the channels' queues and end flags it reads are written by the
 * threads at their other ends.
 */
final class RunnerWaits {
    private final Parker self;
    private final RunControl control;
    // set once by watch(), before the thread starts: the two sides are built with these waits
    private InputChannels in;
    private OutputChannels out;

    RunnerWaits(Parker self, RunControl control) {
        this.self = self;
        this.control = control;
    }

    /** The sides whose neighbours a park wakes first; once, when wired. */
    void watch(InputChannels in, OutputChannels out) {
        this.in = in;
        this.out = out;
    }

    /** One failed check of a wait for input on {@code target} (null: any input); see {@link #pause}. */
    void pauseForInput(IdleStrategy idler, SpscChannel target) {
        pause(idler, WAIT_INPUT, target);
    }

    /** One failed check of a wait for room on {@code target} (null: any default output). */
    void pauseForRoom(IdleStrategy idler, SpscChannel target) {
        pause(idler, WAIT_OUTPUT, target);
    }

    /**
     * One failed check of a wait loop (which reset the wait's {@link IdleStrategy} first): spin, yield or
     * park. Before parking it wakes neighbours a skipped fence may have left asleep, then does the
     * waiter's half of the {@link Parker} handshake.
     */
    private void pause(IdleStrategy idler, int waitKind, SpscChannel target) {
        if (!idler.nextStepParks()) {
            return;
        }
        wakeWhoeverNeedsIt();
        Parker parker = self;
        parker.waitTarget = target;
        boolean longPark = idler.longPark();
        parker.announce(longPark ? waitKind | LONG : waitKind);
        boolean ready = waitKind == WAIT_OUTPUT ? out.roomOrGone(target) : in.worthWaking(target, longPark);
        if (!ready && !control.cancelled) {
            LockSupport.parkNanos(parker, idler.parkNanos());
        }
        parker.running();
        idler.parked();
        // An interrupt left set would make every later park return at once (a hidden busy loop);
        // cancellation, the only interrupt the run-time sends, is seen through control.cancelled.
        Thread.interrupted();
    }

    /** Before parking: a full fence, then wake neighbours a missed wake-up may have left asleep. */
    void wakeWhoeverNeedsIt() {
        VarHandle.fullFence();
        out.wakeConsumersWithItems();
        in.wakeProducersForRoom();
    }
}
