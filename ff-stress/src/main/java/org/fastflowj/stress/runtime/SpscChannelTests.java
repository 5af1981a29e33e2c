package org.fastflowj.stress.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.fastflowj.core.runtime.StressProbes;
import org.fastflowj.core.runtime.StressProbes.ChannelProbe;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Concurrent tests of {@code SpscChannel}'s soft limit: a channel whose limit is below its ring's size
 * (JCTools rounds capacities up to a power of two, at least 4) refuses an offer beyond the limit by
 * asking {@code ChannelQueue.hasFreeSlots} for {@code capacity - limit + 1} free slots.
 *
 * <p>Each test: the producer tries more offers than the limit, of 0, 1, 2, ... (a value is used up only
 * when accepted, as a real producer retries the same item); the consumer polls a few times; the
 * arbiter drains the rest. Result: items accepted, items the consumer took (-1 if not 0, 1, 2, ... in
 * order), items left at the end (-1 if they do not continue that order). Taken + left = accepted: none
 * lost or duplicated. Left is at most the limit: whatever the consumer did, the producer never got
 * more than {@code limit} items queued (it kept offering after the consumer's last poll, so an offer
 * beyond the limit would show here).
 */
public class SpscChannelTests {
    SpscChannelTests() {}

    /** An on-demand slot, {@code bounded(1)}: a 4-slot ring holding one item at a time. */
    @JCStressTest
    @Outcome(
            id = {"1, 1, 0", "2, 2, 0", "3, 3, 0"},
            expect = ACCEPTABLE,
            desc = "the consumer took every accepted item, in order; the slot ends empty")
    @Outcome(
            id = {"1, 0, 1", "2, 1, 1", "3, 2, 1", "4, 3, 1"},
            expect = ACCEPTABLE,
            desc = "the producer refilled the slot after the consumer's last poll: one item left, at the limit")
    @Outcome(
            expect = FORBIDDEN,
            desc = "two items queued in a one-item slot, or an item lost, duplicated or out of order (-1)")
    @State
    public static class OnDemandSlot extends Exchange {
        public OnDemandSlot() {
            super(1, 4, 3);
        }

        @Actor
        public void producer(III_Result r) {
            r.r1 = offerAll();
        }

        @Actor
        public void consumer(III_Result r) {
            r.r2 = pollSome();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = drainRest();
        }
    }

    /** A limit of 3 on a 4-slot ring (a {@code queueCapacity} or an ordered farm's in-flight bound of 3). */
    @JCStressTest
    @Outcome(
            id = {"3, 0, 3", "4, 1, 3", "5, 2, 3", "6, 3, 3"},
            expect = ACCEPTABLE,
            desc = "the producer filled the channel to its limit after the consumer's last poll")
    @Outcome(
            id = {"3, 1, 2", "3, 2, 1", "3, 3, 0", "4, 2, 2", "4, 3, 1", "5, 3, 2"},
            expect = ACCEPTABLE,
            desc = "the consumer polled after the producer's last accepted offer: fewer than 3 left, in order")
    @Outcome(
            expect = FORBIDDEN,
            desc = "4 items queued under a limit of 3 (the ring's spare slot used), or an item lost, duplicated"
                    + " or out of order (-1)")
    @State
    public static class SoftLimit extends Exchange {
        public SoftLimit() {
            super(3, 6, 3);
        }

        @Actor
        public void producer(III_Result r) {
            r.r1 = offerAll();
        }

        @Actor
        public void consumer(III_Result r) {
            r.r2 = pollSome();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = drainRest();
        }
    }

    /** The two sides of one exchange; the producer's and the consumer's counters are their own. */
    abstract static class Exchange {
        private final ChannelProbe channel;
        private final int offers;
        private final int polls;
        /** Consumer (then arbiter): the next value expected, or -1 once one came out of order. */
        private int next;

        Exchange(int limit, int offers, int polls) {
            this.channel = StressProbes.channel(limit);
            this.offers = offers;
            this.polls = polls;
        }

        /** Producer: {@code offers} attempts; returns how many were accepted. */
        final int offerAll() {
            int accepted = 0;
            for (int i = 0; i < offers; i++) {
                if (channel.offer(accepted)) {
                    accepted++;
                }
            }
            return accepted;
        }

        /** Consumer: {@code polls} polls, empty or not; returns how many items it took, or -1. */
        final int pollSome() {
            for (int i = 0; i < polls; i++) {
                take(channel.poll());
            }
            return next;
        }

        /** Arbiter, after both: drains the channel; returns how many items were left, or -1. */
        final int drainRest() {
            int taken = next;
            for (Object item = channel.poll(); item != null; item = channel.poll()) {
                take(item);
            }
            return next < 0 || taken < 0 ? -1 : next - taken;
        }

        private void take(Object item) {
            if (item == null || next < 0) {
                return;
            }
            next = item.equals(next) ? next + 1 : -1;
        }
    }
}
