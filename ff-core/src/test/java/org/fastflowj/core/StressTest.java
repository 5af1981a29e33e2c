package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A million distinct ids through a farm and through an all-to-all, with workers of random (tiny) cost:
 * each id must reach the single-threaded sink exactly once.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StressTest {
    private static final int ITEMS = 1_000_000;
    private static final int MAX_SPIN = 2000;

    /** Emits the ids {@code first, first + step, ...} below {@code end}. */
    private static final class Ids extends Node<Void, Long> {
        private final long end;
        private final long step;
        private long next;

        Ids(long first, long step, long end) {
            this.next = first;
            this.step = step;
            this.end = end;
        }

        @Override
        protected Long svc(Void none) {
            if (next >= end) {
                return eos();
            }
            long id = next;
            next += step;
            return id;
        }
    }

    /** Spins a random 0..max iterations (seeded) per item, then passes it on. */
    private static final class Spinner extends Node<Long, Long> {
        private final SplittableRandom random;
        private final int maxSpin;
        long blackhole;

        Spinner(long seed, int maxSpin) {
            this.random = new SplittableRandom(seed);
            this.maxSpin = maxSpin;
        }

        @Override
        protected Long svc(Long id) {
            blackhole += StreamFixtures.spin(random.nextInt(maxSpin + 1));
            return id;
        }
    }

    /** Single-threaded sink: marks each id, counting duplicates and ids out of range. */
    private static final class Checker extends MultiInputNode<Long, Void> {
        private final int expected;
        private final BitSet seen;
        long duplicates;
        long outOfRange;
        long received;
        int endedChannels;
        int channels = -1;

        Checker(int expected) {
            this.expected = expected;
            this.seen = new BitSet(expected);
        }

        @Override
        protected Void svc(Long item) {
            channels = inputChannels();
            received++;
            long id = item;
            if (id < 0 || id >= expected) {
                outOfRange++;
            } else if (seen.get((int) id)) {
                duplicates++;
            } else {
                seen.set((int) id);
            }
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            endedChannels++;
        }

        int missing() {
            return expected - seen.cardinality();
        }

        int firstMissing() {
            return seen.nextClearBit(0);
        }
    }

    private static void assertExactlyOnce(Checker sink) {
        assertThat(sink.duplicates).as("duplicates").isZero();
        assertThat(sink.outOfRange).as("ids never sent").isZero();
        assertThat(sink.missing())
                .as("missing ids (first: %d)", sink.firstMissing())
                .isZero();
        assertThat(sink.received).isEqualTo(sink.expected);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverAMillionItemsExactlyOnceThroughAFarm(WaitStrategy strategy) {
        Checker sink = new Checker(ITEMS);
        long[] seed = {7};
        Farm farm = Farm.of(4, () -> new Spinner(seed[0]++, MAX_SPIN))
                .emitter(new Ids(0, 1, ITEMS))
                .collector(sink);
        farm.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertExactlyOnce(sink);
        assertThat(sink.channels).isEqualTo(4);
        assertThat(sink.endedChannels).isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverAMillionItemsExactlyOnceThroughAnAllToAll(WaitStrategy strategy) {
        Checker sink = new Checker(ITEMS);
        AllToAll a2a = new AllToAll()
                .firstSet(new Ids(0, 2, ITEMS), new Ids(1, 2, ITEMS))
                .secondSet(new Spinner(11, MAX_SPIN), new Spinner(12, MAX_SPIN), new Spinner(13, MAX_SPIN));
        new Pipeline(a2a, sink).runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertExactlyOnce(sink);
        assertThat(sink.channels).isEqualTo(3);
        assertThat(sink.endedChannels).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryItemExactlyOnceThroughAnOnDemandFarmWithUnboundedQueues(WaitStrategy strategy) {
        // the emitter's staging channel is then a linked-array queue crossing many chunks, while idle
        // workers look at it from other threads: guards against a peek from the wrong side following a
        // chunk link the consumer follows at the same time, which crashes the JVM
        int items = ITEMS / 4;
        Checker sink = new Checker(items);
        long[] seed = {31};
        Farm farm = Farm.of(3, () -> new Spinner(seed[0]++, MAX_SPIN / 4)).onDemand();
        new Pipeline(new Ids(0, 1, items), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).unboundedQueues(true));

        assertExactlyOnce(sink);
        assertThat(sink.channels).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryItemExactlyOnceThroughAnOnDemandFarmWithTinyQueues(WaitStrategy strategy) {
        // every item is a hand-off that may park: fewer items, or the run takes tens of seconds here
        int items = ITEMS / 10;
        Checker sink = new Checker(items);
        long[] seed = {21};
        Farm farm = Farm.of(3, () -> new Spinner(seed[0]++, MAX_SPIN)).onDemand(2);
        new Pipeline(new Ids(0, 1, items), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(2));

        assertExactlyOnce(sink);
        assertThat(sink.channels).isEqualTo(3);
    }

    /** Single-threaded sink checking that ids arrive as 0, 1, 2, ... */
    private static final class InOrder extends Node<Long, Void> {
        long expected;
        long outOfOrder;
        long firstBad = -1;

        @Override
        protected Void svc(Long id) {
            if (id != expected) {
                outOfOrder++;
                if (firstBad < 0) {
                    firstBad = expected;
                }
                expected = id;
            }
            expected++;
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepAMillionItemsInOrderThroughAnOrderedFarm(WaitStrategy strategy) {
        InOrder sink = new InOrder();
        long[] seed = {31};
        Farm farm = Farm.of(4, () -> new Spinner(seed[0]++, MAX_SPIN)).ordered(64);
        new Pipeline(new Ids(0, 1, ITEMS), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(sink.outOfOrder)
                .as("items out of order (first expected: %d)", sink.firstBad)
                .isZero();
        assertThat(sink.expected).isEqualTo(ITEMS);
    }

    /** Emitter of a feedback farm: keeps {@code window} tasks circulating until {@code total} came back. */
    private static final class Circulator extends Node<Long, Long> {
        private final BitSet back = new BitSet(ITEMS);
        private final long total;
        private final int window;
        private long next;
        long received;
        long duplicates;

        Circulator(long total, int window) {
            this.total = total;
            this.window = window;
        }

        @Override
        protected Long svc(Long id) {
            if (id == null) {
                for (int i = 0; i < window; i++) {
                    sendOut(next++);
                }
                return goOn();
            }
            received++;
            if (back.get((int) (long) id)) {
                duplicates++;
            }
            back.set((int) (long) id);
            if (received == total) {
                return eos();
            }
            return next < total ? Long.valueOf(next++) : goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldReturnEveryItemOnceThroughAFeedbackFarm(WaitStrategy strategy) {
        int total = ITEMS / 2;
        Circulator emitter = new Circulator(total, 256);
        long[] seed = {41};
        Farm.of(3, () -> new Spinner(seed[0]++, MAX_SPIN))
                .emitter(emitter)
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(16));

        assertThat(emitter.duplicates).isZero();
        assertThat(emitter.received).isEqualTo(total);
        assertThat(emitter.back.cardinality()).isEqualTo(total);
    }
}
