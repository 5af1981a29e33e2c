package org.fastflowj.stress.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.fastflowj.core.runtime.StressProbes;
import org.fastflowj.core.runtime.channel.Parker;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The {@link Parker} handshake, as every waiter outside a node loop uses it (the accelerator's caller and
 * stages, ff-dist's receivers and credit waits): a producer publishes with a release store (a JCTools
 * offer) and calls {@link Parker#wake()}; a consumer announces its park ({@code Parker.announce}, the
 * first half of {@link Parker#parkUnless}) and re-checks the queue. The parker has no thread, so the
 * unpark is a no-op; the arbiter reads the state to see whether the wake-up's CAS happened.
 *
 * <p>Result: the consumer's re-check found the item (1) or not (0, so it would park); the parker's
 * state after both ({@code RUNNING} 0 if the producer woke it, else the announced kind, 5).
 */
@JCStressTest
@Outcome(
        id = "1, 5",
        expect = ACCEPTABLE,
        desc = "the producer looked before the park was announced; the re-check saw the item, no park")
@Outcome(
        id = "0, 0",
        expect = ACCEPTABLE,
        desc = "the re-check ran before the offer: the consumer parks, and the producer saw it and woke it")
@Outcome(
        id = "1, 0",
        expect = ACCEPTABLE,
        desc = "each saw the other: no park, and a spare unpark (the next park returns at once, once)")
@Outcome(
        id = "0, 5",
        expect = FORBIDDEN,
        desc = "lost wake-up: the consumer parks with an item queued, and the producer did not wake it")
@State
public class ParkerTests {
    private static final int ANNOUNCED = StressProbes.LONG_INPUT_WAIT;

    private final Parker parker = StressProbes.parker();
    private final SpscArrayQueue<Object> queue = new SpscArrayQueue<>(4);

    public ParkerTests() {}

    @Actor
    public void producer() {
        queue.offer("item");
        parker.wake();
    }

    @Actor
    public void consumer(II_Result r) {
        StressProbes.announce(parker, ANNOUNCED);
        r.r1 = queue.isEmpty() ? 0 : 1;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = StressProbes.state(parker);
    }
}
