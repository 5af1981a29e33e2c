package org.fastflowj.stress.patterns;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.fastflowj.patterns.concurrent.OutstandingBound;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The wake-up hand-shake of {@link OutstandingBound} (MacroDataFlow's bound on outstanding tasks): the
 * generator, at the bound, announces itself and re-checks; the scheduler gives back the credit that brings
 * the count down to the resume mark and looks for a waiter. A bound of 2 with 2 taken: one release reaches
 * the mark (1).
 *
 * <p>Result: whether the generator's re-check saw room (1) or it would park (0); whether the releaser saw
 * the generator waiting and unparked it (1) or not (0).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the release came first: the generator sees room, does not park")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the generator would park; the releaser saw it and woke it")
@Outcome(
        id = "1, 1",
        expect = ACCEPTABLE,
        desc = "each saw the other: no park, a spare unpark (the next park returns at once, and loops)")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "missed wake-up: the generator parks, the releaser saw no waiter")
@State
public class OutstandingBoundTests {
    private final OutstandingBound bound = new OutstandingBound(2);

    public OutstandingBoundTests() {
        try {
            bound.acquire();
            bound.acquire();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Actor
    public void generator(II_Result r) {
        r.r1 = bound.announceAndRecheck() ? 1 : 0;
    }

    @Actor
    public void scheduler(II_Result r) {
        r.r2 = bound.release() ? 1 : 0;
    }
}
