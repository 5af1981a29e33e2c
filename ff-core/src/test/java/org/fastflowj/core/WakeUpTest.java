package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Parked consumers are woken in batches (BACKOFF) or at once (BLOCKING); either way an item must reach
 * its consumer while the producer is still busy and will not send more, nor go idle, until it did. A
 * lost or withheld wake-up makes these tests hang until their timeout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WakeUpTest {
    /** Emits 0..rounds-1, each only after the previous one reached the end of the pipeline. */
    static final class LockStepSource extends Node<Void, Integer> {
        final int rounds;
        final List<CountDownLatch> delivered = new CopyOnWriteArrayList<>();
        int next;

        LockStepSource(int rounds) {
            this.rounds = rounds;
            for (int i = 0; i < rounds; i++) {
                delivered.add(new CountDownLatch(1));
            }
        }

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            if (next > 0) {
                // Busy in svc (neither emitting nor waiting on a channel) until the last item arrived.
                delivered.get(next - 1).await();
            }
            return next < rounds ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Arrivals extends Node<Integer, Void> {
        final LockStepSource source;
        final List<Integer> seen = new CopyOnWriteArrayList<>();

        Arrivals(LockStepSource source) {
            this.source = source;
        }

        @Override
        protected Void svc(Integer item) {
            seen.add(item);
            source.delivered.get(item).countDown();
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEachItemWhileItsProducerIsStillBusy(WaitStrategy strategy) {
        LockStepSource source = new LockStepSource(50);
        Arrivals sink = new Arrivals(source);
        new Pipeline(
                        source,
                        Node.<Integer, Integer>of(x -> x),
                        Farm.of(2, () -> Node.<Integer, Integer>of(x -> x)),
                        sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));
        assertThat(sink.seen).hasSize(50).doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverTrickleThroughAnOrderedFarmAndAnAllToAll(WaitStrategy strategy) {
        LockStepSource source = new LockStepSource(30);
        Arrivals sink = new Arrivals(source);
        var a2a = new AllToAll()
                .firstSet(Node.<Integer, Integer>of(x -> x))
                .secondSet(Node.<Integer, Integer>of(x -> x), Node.<Integer, Integer>of(x -> x));
        new Pipeline(source, Farm.of(3, () -> Node.<Integer, Integer>of(x -> x)).ordered(), a2a, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));
        assertThat(sink.seen).hasSize(30).doesNotHaveDuplicates();
    }
}
