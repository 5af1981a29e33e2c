package org.fastflowj.stress.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.fastflowj.core.runtime.StressProbes;
import org.fastflowj.core.runtime.StressProbes.ChannelProbe;
import org.fastflowj.core.runtime.StressProbes.DispatchProbe;
import org.fastflowj.core.runtime.StressProbes.RunnerProbe;
import org.fastflowj.core.spi.Sentinel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

/**
 * Concurrent tests of {@code OnDemandDispatch}: one producer's staging channel handed out to two
 * consumers' slots (A's, then B's; one item each, four in {@code EndsOwed}) by whichever thread takes
 * the role. Built as {@code Executor.dispatch} builds it, on real runners without threads; the actors
 * call what the runners call: a consumer whose slot ran empty {@code run(itself)}
 * ({@code InputChannels.refillSlots}), the producer {@code staging.offer} then
 * {@code afterSubmit()} ({@code OutputChannels.stage}), all through {@link StressProbes}.
 *
 * <p>What the dispatch promises: every staged item ends in exactly one slot or still staged, in
 * staging order; no slot over its limit (end-of-stream may go past it, into the ring's spare room); and
 * no item left behind while a slot has room and nobody is awake to move it: a thread that misses the
 * role sets {@code retry} and the holder, after letting go, runs another round (each writes its flag,
 * then reads the other's).
 */
public class OnDemandDispatchTests {
    OnDemandDispatchTests() {}

    /**
     * Both slots hold an item (0, 1) and two more are staged (2, 3). Each consumer takes its item and
     * refills: at the end both slots must be full again and nothing staged, whoever held the role when.
     * Result: what A's slot, B's slot and staging hold at the end, and the role (0 = free).
     */
    @JCStressTest
    @Outcome(
            id = "2, 3, -, 0",
            expect = ACCEPTABLE,
            desc = "round-robin from A: 2 to A, 3 to B (in one round, or B's slot filled in a retry round or by"
                    + " B's own run)")
    @Outcome(
            id = "3, 2, -, 0",
            expect = ACCEPTABLE,
            desc = "B's round found A's slot still full: 2 to B, then 3 to A in a retry round or A's own run")
    @Outcome(
            expect = FORBIDDEN,
            desc = "an item left staged with a slot free (the retry hand-shake missed), lost, duplicated, out of"
                    + " order, two items in a slot, or the role left taken")
    @State
    public static class ConsumersRefill extends TwoSlots {
        public ConsumersRefill() {
            stageAndHandOut(0, 1, 2, 3);
        }

        @Actor
        public void consumerA() {
            slotA.poll();
            dispatch.run(a);
        }

        @Actor
        public void consumerB() {
            slotB.poll();
            dispatch.run(b);
        }

        @Arbiter
        public void arbiter(LLLL_Result r) {
            r.r1 = ChannelContents.drain(slotA);
            r.r2 = ChannelContents.drain(slotB);
            r.r3 = ChannelContents.drain(dispatch.staging());
            r.r4 = dispatch.role();
        }
    }

    /**
     * The producer stages 1 while A takes its item 0 and refills; B, parked on its empty slot, makes the
     * producer hand out at once. Producer and A race for the role: the loser sets {@code retry}, the
     * winner must then see the other's item or free slot. Result: A's slot, B's slot, staging at the
     * end, and B's state (1 = still waiting, 0 = woken).
     */
    @JCStressTest
    @Outcome(
            id = "1, -, -, 1",
            expect = ACCEPTABLE,
            desc = "A's slot was free when item 1 was handed out (round-robin starts at A): A gets it, B sleeps on")
    @Outcome(
            id = "-, 1, -, 0",
            expect = ACCEPTABLE,
            desc = "A's slot still held 0 when item 1 was handed out: B gets it and is woken")
    @Outcome(
            expect = FORBIDDEN,
            desc = "item 1 left staged (the retry hand-shake missed), lost or duplicated, or in B's slot with B"
                    + " still asleep")
    @State
    public static class ProducerAndConsumerRefill extends TwoSlots {
        public ProducerAndConsumerRefill() {
            stageAndHandOut(0, 9); // 0 to A, 9 to B: round-robin is back at A
            slotB.poll(); // B took 9 and parked, waiting for any input
            b.waitTarget(null);
            b.announce(StressProbes.WAIT_INPUT);
        }

        @Actor
        public void producer() {
            dispatch.staging().offer(1);
            dispatch.afterSubmit();
        }

        @Actor
        public void consumerA() {
            slotA.poll();
            dispatch.run(a);
        }

        @Arbiter
        public void arbiter(LLLL_Result r) {
            r.r1 = ChannelContents.drain(slotA);
            r.r2 = ChannelContents.drain(slotB);
            r.r3 = ChannelContents.drain(dispatch.staging());
            r.r4 = b.state();
        }
    }

    /**
     * A's slot holds 0, B's is empty and B is about to park on it; the producer stages 1 and, seeing a
     * consumer waiting, hands it out at once. B's re-check before parking looks at its slot and at the
     * staging channel ({@code inputWorthWaking}); the producer fences between its offer and its read of
     * B's state. Result: B's re-check found work (1) or not (0, so it parks), B's slot and staging at the
     * end, and B's state (1 = still waiting, 0 = woken).
     */
    @JCStressTest
    @Outcome(
            id = "1, -, 1, 1",
            expect = ACCEPTABLE,
            desc = "the producer saw B running and handed nothing out; B's re-check saw item 1 staged, so B does"
                    + " not park but refills its slot itself")
    @Outcome(
            id = "0, 1, -, 0",
            expect = ACCEPTABLE,
            desc = "B re-checked before item 1 was staged and parks; the producer saw it waiting, handed 1 to its"
                    + " slot and woke it")
    @Outcome(
            id = "1, 1, -, 0",
            expect = ACCEPTABLE,
            desc = "each saw the other: 1 handed to B and B woken, while B's re-check saw it (staged or in its"
                    + " slot) and does not park; the unpark is spare")
    @Outcome(
            id = "0, -, 1, 1",
            expect = FORBIDDEN,
            desc = "missed wake-up: B parks with item 1 staged and nobody handing it out")
    @Outcome(
            expect = FORBIDDEN,
            desc = "item 1 in B's slot while B sleeps unwoken (stale waitTarget), lost, duplicated, or in A's full"
                    + " slot")
    @State
    public static class ProducerWakesParkedConsumer extends TwoSlots {
        public ProducerWakesParkedConsumer() {
            stageAndHandOut(0); // 0 to A: round-robin goes on at B
            b.waitTarget(slotA); // not B's input: a waker reading waitTarget stale would not wake B
        }

        @Actor
        public void producer() {
            dispatch.staging().offer(1);
            dispatch.afterSubmit();
        }

        /** ChannelEnd.pause for input on any channel, and its re-check, InputChannels.worthWaking(null). */
        @Actor
        public void consumerB(LLLL_Result r) {
            b.waitTarget(null);
            b.announce(StressProbes.WAIT_INPUT);
            r.r1 = slotB.hasItems() || dispatch.hasWork() ? 1 : 0;
        }

        @Arbiter
        public void arbiter(LLLL_Result r) {
            r.r2 = ChannelContents.drain(slotB);
            r.r3 = ChannelContents.drain(dispatch.staging());
            r.r4 = b.state();
        }
    }

    /**
     * End-of-stream owed: slots of 4 (a full ring each: 0, 2, 4, 6 for A, 1, 3, 5, 7 for B) and the end
     * taken from staging with no room for it anywhere. Each consumer takes one item and refills, which
     * now means sending the ends still owed. Result: A's slot, B's slot, staging at the end, and "done"
     * if both slots are marked ended and the dispatch has no work left.
     */
    @JCStressTest
    @Outcome(
            id = "246E, 357E, -, done",
            expect = ACCEPTABLE,
            desc = "each slot got its end once, after its items, from whichever round found room in it")
    @Outcome(
            expect = FORBIDDEN,
            desc = "an end still owed to a slot with room (the retry hand-shake missed), sent twice, or before an"
                    + " item; or an item lost")
    @State
    public static class EndsOwed extends TwoSlots {
        public EndsOwed() {
            super(4, 8);
            stageAndHandOut(0, 1, 2, 3, 4, 5, 6, 7, Sentinel.EOS);
        }

        @Actor
        public void consumerA() {
            slotA.poll();
            dispatch.run(a);
        }

        @Actor
        public void consumerB() {
            slotB.poll();
            dispatch.run(b);
        }

        @Arbiter
        public void arbiter(LLLL_Result r) {
            r.r1 = ChannelContents.drain(slotA);
            r.r2 = ChannelContents.drain(slotB);
            r.r3 = ChannelContents.drain(dispatch.staging());
            r.r4 = slotA.producerDone() && slotB.producerDone() && !dispatch.hasWork() ? "done" : "owed";
        }
    }

    /** The base: a producer, consumers A and B, their slots of one item, the dispatch between them. */
    abstract static class TwoSlots {
        final RunnerProbe producer = StressProbes.runner();
        final RunnerProbe a = StressProbes.runner();
        final RunnerProbe b = StressProbes.runner();
        final ChannelProbe slotA;
        final ChannelProbe slotB;
        final DispatchProbe dispatch;

        TwoSlots() {
            this(1, 2);
        }

        TwoSlots(int slotLimit, int queueCapacity) {
            slotA = StressProbes.channel(slotLimit, producer, a);
            slotB = StressProbes.channel(slotLimit, producer, b);
            dispatch = StressProbes.dispatch(producer, queueCapacity, slotA, slotB);
        }

        /** Before the test, on one thread: stages {@code items} and lets the dispatch place what fits. */
        final void stageAndHandOut(Object... items) {
            for (Object item : items) {
                dispatch.staging().offer(item);
            }
            dispatch.run(null);
        }
    }
}
