package org.fastflowj.stress.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.runtime.StressProbes;
import org.fastflowj.core.runtime.StressProbes.ChannelProbe;
import org.fastflowj.core.runtime.StressProbes.RunnerProbe;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Concurrent tests of {@code Parker}'s wake-up protocol, on real runners and channels. The sleeper
 * actor does what {@code ChannelEnd.pause} (through {@code Parker.park}) does in a parking round up to the park itself: write
 * {@code waitTarget}, then announce the park ({@code state}, then a full fence), then re-check what it
 * waits for. The other actor
 * does what {@code OutputChannels.wakeConsumer} (or {@code InputChannels.tookFrom}) does after an
 * offer (a poll): read the sleeper's state and, if it waits, {@code wakeForItem} ({@code wakeForRoom}),
 * a CAS to {@code RUNNING} and an unpark. The runners have no thread, so the unpark is a no-op; the
 * arbiter reads the state to see whether the CAS happened. Before the test the sleeper's
 * {@code waitTarget} is another channel, left from an earlier wait: a waker that read it stale would
 * not wake. The runners and channels are the engine's, reached through {@link StressProbes}.
 *
 * <p>Result: the sleeper's re-check found what it waits for (1) or not (0, so it would park); the state
 * the other side read (0 {@code RUNNING}, 1 {@code WAIT_INPUT}, 2 {@code WAIT_OUTPUT}); the state after
 * both (still waiting unless the CAS woke it).
 */
public class ParkingStateTests {
    ParkingStateTests() {}

    /** A consumer parking on an empty channel; its producer offers, then a full fence, then looks. */
    @JCStressTest
    @Outcome(
            id = "1, 0, 1",
            expect = ACCEPTABLE,
            desc = "the producer looked before the sleeper announced its wait; the sleeper's re-check saw the"
                    + " item, so it does not park")
    @Outcome(
            id = "0, 1, 0",
            expect = ACCEPTABLE,
            desc = "the sleeper re-checked before the offer and parks; the producer saw it waiting and woke it")
    @Outcome(
            id = "1, 1, 0",
            expect = ACCEPTABLE,
            desc = "each saw the other: the sleeper does not park, the producer's unpark is spare (its next park"
                    + " returns at once, once)")
    @Outcome(
            id = "0, 0, 1",
            expect = FORBIDDEN,
            desc = "missed wake-up: the sleeper parks on a queued item, the producer saw it running")
    @Outcome(
            expect = FORBIDDEN,
            desc = "the producer saw the wait but did not wake the sleeper (stale waitTarget), or a state no one"
                    + " wrote")
    @State
    public static class ItemWakeUp extends ItemWait {
        @Actor
        public void sleeper(III_Result r) {
            r.r1 = announceAndRecheck();
        }

        @Actor
        public void producer(III_Result r) {
            channel.offer(ITEM);
            // The fence OutputChannels.wakeConsumer issues every 64th item (and every thread before
            // it parks): the offer, a release store, cannot pass the state read below.
            VarHandle.fullFence();
            r.r2 = lookAndWake();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = sleeper.state();
        }
    }

    /**
     * The same without the fence, as on 63 items in 64: the offer is a release store, the state read a
     * plain volatile load, and a store-load reordering lets the two sides miss each other.
     */
    @JCStressTest
    @Outcome(
            id = "1, 0, 1",
            expect = ACCEPTABLE,
            desc = "the producer looked before the sleeper announced its wait; the sleeper's re-check saw the"
                    + " item, so it does not park")
    @Outcome(
            id = "0, 1, 0",
            expect = ACCEPTABLE,
            desc = "the sleeper re-checked before the offer and parks; the producer saw it waiting and woke it")
    @Outcome(
            id = "1, 1, 0",
            expect = ACCEPTABLE,
            desc = "each saw the other: the sleeper does not park, the producer's unpark is spare")
    @Outcome(
            id = "0, 0, 1",
            expect = ACCEPTABLE_INTERESTING,
            desc = "missed wake-up (store-load reordering): a delay, never a hang, bounded by the park"
                    + " time-out (1 ms for a wait's first park, at most 64 ms), the producer's fence every 64"
                    + " items and before it parks itself")
    @Outcome(
            expect = FORBIDDEN,
            desc = "the producer saw the wait but did not wake the sleeper (stale waitTarget), or a state no one"
                    + " wrote")
    @State
    public static class ItemWakeUpUnfenced extends ItemWait {
        @Actor
        public void sleeper(III_Result r) {
            r.r1 = announceAndRecheck();
        }

        @Actor
        public void producer(III_Result r) {
            channel.offer(ITEM);
            r.r2 = lookAndWake();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = sleeper.state();
        }
    }

    /**
     * A producer parking on a full channel (limit 2, so it resumes at 1 item: the low-water mark); its
     * consumer polls one item, then a full fence ({@code tookFrom}'s every 64th), then looks.
     */
    @JCStressTest
    @Outcome(
            id = "1, 0, 2",
            expect = ACCEPTABLE,
            desc = "the consumer looked before the sleeper announced its wait; the sleeper's re-check saw the"
                    + " room, so it does not park")
    @Outcome(
            id = "0, 2, 0",
            expect = ACCEPTABLE,
            desc = "the sleeper re-checked before the poll and parks; the consumer saw it waiting and woke it")
    @Outcome(
            id = "1, 2, 0",
            expect = ACCEPTABLE,
            desc = "each saw the other: the sleeper does not park, the consumer's unpark is spare")
    @Outcome(
            id = "0, 0, 2",
            expect = FORBIDDEN,
            desc = "missed wake-up: the sleeper parks on a drained channel, the consumer saw it running")
    @Outcome(
            expect = FORBIDDEN,
            desc = "the consumer saw the wait but did not wake the sleeper (stale waitTarget, or it did not see"
                    + " the channel drained to its low-water mark)")
    @State
    public static class RoomWakeUp {
        private final RunnerProbe sleeper = StressProbes.runner();
        private final ChannelProbe channel = StressProbes.channel(2, sleeper, StressProbes.runner());

        public RoomWakeUp() {
            sleeper.waitTarget(StressProbes.channel(2, sleeper, StressProbes.runner()));
            channel.offer(ItemWait.ITEM);
            channel.offer(ItemWait.ITEM);
        }

        /** ChannelEnd.pause for room on a channel, and its re-check, SpscChannel.roomOrGone. */
        @Actor
        public void sleeper(III_Result r) {
            sleeper.waitTarget(channel);
            sleeper.announce(StressProbes.WAIT_OUTPUT);
            r.r1 = channel.producerMayResume() || channel.consumerGone() ? 1 : 0;
        }

        /** InputChannels.tookFrom on a short channel, at a fenced item. */
        @Actor
        public void consumer(III_Result r) {
            channel.poll();
            VarHandle.fullFence();
            int seen = channel.producerState();
            if (seen == StressProbes.WAIT_OUTPUT) {
                channel.wakeProducerForRoom();
            }
            r.r2 = seen;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = sleeper.state();
        }
    }

    /** A consumer about to park on its one, empty, input channel. */
    abstract static class ItemWait {
        static final Object ITEM = "item";

        final RunnerProbe sleeper = StressProbes.runner();
        final ChannelProbe channel = StressProbes.channel(4, StressProbes.runner(), sleeper);

        ItemWait() {
            sleeper.waitTarget(StressProbes.channel(4, StressProbes.runner(), sleeper));
        }

        /** RunnerWaits.pauseForInput(channel) and its re-check, inputWorthWaking(channel). */
        final int announceAndRecheck() {
            sleeper.waitTarget(channel);
            sleeper.announce(StressProbes.WAIT_INPUT); // opaque write and a full fence, then the re-check
            return channel.hasItems() || channel.producerDone() ? 1 : 0;
        }

        /** OutputChannels.wakeConsumer's look, after the offer; returns the state it read. */
        final int lookAndWake() {
            int seen = channel.consumerState();
            if (seen == StressProbes.WAIT_INPUT && channel.worthWaking()) {
                channel.wakeConsumerForItem();
            }
            return seen;
        }
    }
}
