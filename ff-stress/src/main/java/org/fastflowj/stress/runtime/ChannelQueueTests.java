package org.fastflowj.stress.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.fastflowj.core.runtime.StressProbes;
import org.fastflowj.core.runtime.StressProbes.ChannelQueueProbe;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/** Concurrent tests of {@code ChannelQueue}: the producer's look-ahead question against a polling consumer. */
public class ChannelQueueTests {
    ChannelQueueTests() {}

    /**
     * {@code ChannelQueue.hasFreeSlots}: a yes is a promise. The 8-slot ring has wrapped once (so its free
     * slots are ones the consumer nulled, not never-used ones) and is full; the consumer polls 4 items
     * while the producer asks for 3 free slots, then offers 3 items (each whatever the answer). The
     * slot it reads, 2 ahead of its index, is nulled by the consumer only after the 2 before it, with
     * release stores; the acquire read of that null makes the earlier ones visible too, so after a yes
     * all 3 offers must succeed. A no is always allowed: the answer is conservative, and a waiting
     * producer asks again.
     *
     * <p>Result: the answer, then how many of the 3 offers were accepted.
     */
    @JCStressTest
    @Outcome(id = "true, 3", expect = ACCEPTABLE, desc = "saw room for 3, and all 3 offers were accepted")
    @Outcome(
            id = {"false, 0", "false, 1", "false, 2", "false, 3"},
            expect = ACCEPTABLE,
            desc = "asked before the consumer had freed 3 slots: a conservative no; the offers then took whatever"
                    + " room the consumer had freed by their time")
    @Outcome(
            expect = FORBIDDEN,
            desc = "said yes, then refused an offer: a producer waiting on hasFreeSlots would offer into a full"
                    + " ring")
    @State
    public static class FreeSlotsPromise {
        private static final int CAPACITY = 8;
        private static final int ASKED = 3;
        private static final int POLLED = 4;

        private final ChannelQueueProbe queue = StressProbes.channelQueue(CAPACITY);

        public FreeSlotsPromise() {
            for (int i = 0; i < CAPACITY; i++) {
                queue.offer(i);
            }
            for (int i = 0; i < CAPACITY; i++) {
                queue.poll();
            }
            for (int i = 0; i < CAPACITY; i++) {
                queue.offer(i);
            }
        }

        /** The channel's producer: asks, then offers. */
        @Actor
        public void producer(ZI_Result r) {
            r.r1 = queue.hasFreeSlots(ASKED);
            int accepted = 0;
            for (int i = 0; i < ASKED; i++) {
                if (queue.offer(CAPACITY + i)) {
                    accepted++;
                }
            }
            r.r2 = accepted;
        }

        /** The channel's consumer: takes the 4 oldest items. */
        @Actor
        public void consumer() {
            for (int i = 0; i < POLLED; i++) {
                queue.poll();
            }
        }
    }
}
