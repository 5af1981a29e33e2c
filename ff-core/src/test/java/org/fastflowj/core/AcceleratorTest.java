package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AcceleratorTest {
    @Test
    void shouldReturnEveryOffloadedItemProcessedAfterTheInputEnded() {
        // tag::accelerator[]
        Accelerator<Integer, Integer> acc = Accelerator.start(Farm.of(3, () -> Node.<Integer, Integer>of(x -> x * x)));
        for (int i = 0; i < 10_000; i++) {
            acc.offload(i); // into the running farm's input stream
        }
        acc.endInput(); // FastFlow's offload(EOS)
        List<Integer> results = new ArrayList<>();
        for (Integer r; (r = acc.loadResult()) != null; ) { // null: the farm ended, all results taken
            results.add(r);
        }
        // end::accelerator[]
        assertThat(results)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, 10_000).map(i -> i * i).boxed().toList());
        acc.waitEnd();
    }

    @Test
    void shouldMakeTheInputStageTheEmitterOfAFarmALibraryStartsInProcess() {
        List<Integer> inProcess = squaresThrough(true);
        List<Integer> started = squaresThrough(false);

        List<Integer> expected =
                IntStream.range(0, 1000).map(x -> x * x).boxed().toList();
        assertThat(inProcess).isEqualTo(expected);
        assertThat(started).isEqualTo(expected);
    }

    /** The squares of 0..999 through a 3-worker farm, checking its node threads: its own emitter or not. */
    private static List<Integer> squaresThrough(boolean inProcess) {
        Farm farm = Farm.of(3, () -> Node.<Integer, Integer>of(x -> x * x)).onDemand();
        List<Integer> results = new ArrayList<>();
        try (Accelerator<Integer, Integer> acc = inProcess
                ? Accelerator.startInProcess(farm, RunOptions.defaults())
                : Accelerator.start(farm, RunOptions.defaults())) {
            for (int i = 0; i < 1000; i++) {
                acc.offload(i);
            }
            acc.endInput();
            for (Integer r; (r = acc.loadResult()) != null; ) {
                results.add(r);
            }
        }
        // 3 workers and the output stage, plus the input stage and the emitter, or the one doing both
        assertThat(farm.stats().nodes()).hasSize(inProcess ? 5 : 6);
        results.sort(null);
        return results;
    }

    @Test
    void shouldAnswerEachOffloadBeforeTheNextOneThroughAnOrderedFarm() {
        try (Accelerator<Integer, String> acc = Accelerator.start(
                Farm.of(2, () -> Node.<Integer, String>of(x -> "#" + x)).ordered(),
                RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING).queueCapacity(4))) {
            for (int i = 0; i < 200; i++) {
                acc.offload(i);
                assertThat(acc.loadResult()).isEqualTo("#" + i); // one round trip at a time
            }
            assertThat(acc.pollResult()).isNull();
        }
    }

    @Test
    void shouldRethrowAFailureOfTheBlockToTheCaller() {
        Accelerator<Integer, Integer> acc = Accelerator.start(Node.<Integer, Integer>of(x -> {
            if (x == 5) {
                throw new IllegalArgumentException("bad " + x);
            }
            return x;
        }));
        // The failure may surface in offload, endInput or loadResult, whichever
        // the caller reaches after the node thread failed on item 5.
        assertThatThrownBy(() -> {
                    for (int i = 0; i < 10; i++) {
                        acc.offload(i);
                    }
                    acc.endInput();
                    while (acc.loadResult() != null) {
                        // drain until the failure surfaces
                    }
                })
                .isInstanceOf(NodeFailedException.class)
                .hasRootCauseMessage("bad 5");
    }

    @Test
    void shouldRefuseInputOnceTheBlockStoppedTakingIt() {
        Node<Integer, Integer> takeThree = new Node<>() {
            int seen;

            @Override
            protected Integer svc(Integer x) {
                return ++seen < 3 ? x : eos();
            }
        };
        Accelerator<Integer, Integer> acc =
                Accelerator.start(takeThree, RunOptions.defaults().queueCapacity(4));
        assertThatThrownBy(() -> {
                    for (int i = 0; i < 1_000_000; i++) {
                        acc.offload(i);
                    }
                })
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no more input");
        assertThat(acc.loadResult()).isEqualTo(0);
        assertThat(acc.loadResult()).isEqualTo(1);
        assertThat(acc.loadResult()).isNull();
    }

    @Test
    void shouldRefuseOffloadAfterEndInput() {
        Accelerator<Integer, Integer> acc = Accelerator.start(Node.<Integer, Integer>of(x -> x));
        acc.endInput();
        assertThatThrownBy(() -> acc.offload(1)).isInstanceOf(IllegalStateException.class);
        assertThat(acc.loadResult()).isNull();
    }

    @Test
    void shouldGiveUpAndCancelWhenTheWaitingThreadIsInterrupted() {
        Farm farm = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x));
        Accelerator<Integer, Integer> acc = Accelerator.start(farm);
        Thread.currentThread().interrupt(); // no input will ever come: the caller gives up
        try {
            assertThatThrownBy(acc::loadResult).isInstanceOf(CancellationException.class);
        } finally {
            assertThat(Thread.interrupted()).as("interrupt flag kept").isTrue();
        }
        assertThatThrownBy(farm::waitEnd).isInstanceOf(CancellationException.class);
    }

    @Test
    void shouldLetTheBlockBeWaitedOnAndRefuseASecondStartWhileRunning() {
        Farm farm = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x));
        Accelerator<Integer, Integer> acc = Accelerator.start(farm);
        assertThatThrownBy(() -> Accelerator.start(farm))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already running");
        assertThat(farm.waitEnd(20, TimeUnit.MILLISECONDS)).isFalse();
        acc.offload(7);
        acc.endInput();
        assertThat(acc.loadResult()).isEqualTo(7);
        assertThat(acc.loadResult()).isNull();
        assertThat(acc.isFinished()).isTrue();
        assertThat(farm.waitEnd(5, TimeUnit.SECONDS)).isTrue();
        try (Accelerator<Integer, Integer> again = Accelerator.start(farm)) { // a new round, as FastFlow's freezing
            again.offload(8);
            assertThat(again.loadResult()).isEqualTo(8);
        }
    }

    /** A master-worker farm: results go back to the emitter, none reach the caller. */
    static final class Master extends MultiInputNode<Integer, Integer> {
        int pending;
        int back;
        boolean inputEnded;

        @Override
        protected Integer svc(Integer x) {
            if (fromFeedback()) {
                back++;
                return --pending == 0 && inputEnded ? eos() : goOn();
            }
            pending++;
            return x;
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (pending == 0) {
                sendOut(eos());
            }
        }
    }

    @Test
    void shouldRunAMasterWorkerFarmWhoseResultsGoBackToItsEmitter() {
        Master master = new Master();
        Accelerator<Integer, Integer> acc = Accelerator.start(Farm.of(3, () -> Node.<Integer, Integer>of(x -> x + 1))
                .emitter(master)
                .wrapAround());
        for (int i = 0; i < 500; i++) {
            acc.offload(i);
        }
        acc.endInput();
        assertThat(acc.loadResult()).isNull();
        assertThat(master.back).isEqualTo(500);
    }

    /** A block whose sink adds up what it takes and wakes the caller once the sum reaches a target. */
    private static final class Summing {
        final java.util.concurrent.atomic.AtomicLong sum = new java.util.concurrent.atomic.AtomicLong();
        volatile Accelerator<Long, Void> acc;

        Accelerator<Long, Void> start(long target) {
            Node<Long, Void> adder = Node.sink(x -> {
                if (sum.addAndGet(x) >= target) {
                    acc.wakeWaiter();
                }
            });
            acc = Accelerator.start(
                    new Pipeline(Node.<Long, Long>of(x -> x), adder),
                    RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));
            return acc;
        }
    }

    @Test
    void shouldWaitUntilAConditionTheBlockMakesTrue() {
        Summing s = new Summing();
        try (Accelerator<Long, Void> acc = s.start(5050)) {
            for (long i = 1; i <= 100; i++) {
                acc.offload(i);
            }
            // nothing comes back through the output channel: the caller waits on the sum itself
            assertThat(acc.awaitUntil(() -> s.sum.get() >= 5050)).isTrue();
            assertThat(s.sum.get()).isEqualTo(5050);
        }
    }

    @Test
    void shouldStopWaitingWhenTheBlockEndsWithTheConditionStillFalse() {
        Summing s = new Summing();
        Accelerator<Long, Void> acc = s.start(Long.MAX_VALUE);
        acc.offload(1L);
        acc.endInput();
        assertThat(acc.awaitUntil(() -> s.sum.get() > 1))
                .as("the block ended first")
                .isFalse();
        assertThat(s.sum.get()).isEqualTo(1);
        acc.waitEnd();
    }

    @Test
    void shouldStopWaitingWhenInterruptedAndKeepTheInterrupt() {
        Summing s = new Summing();
        try (Accelerator<Long, Void> acc = s.start(Long.MAX_VALUE)) {
            Thread.currentThread().interrupt();
            try {
                assertThat(acc.awaitUntil(() -> false)).isFalse();
                assertThat(Thread.currentThread().isInterrupted()).isTrue();
            } finally {
                Thread.interrupted();
            }
        }
    }
}
