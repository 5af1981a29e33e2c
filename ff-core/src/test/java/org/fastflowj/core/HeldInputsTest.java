package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MultiInputNode#holdInput}: a held input is not read until the node lets go, or until no other
 * input is left open (ended, held, or blocked for a checkpoint's alignment); the node is given every item
 * either way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeldInputsTest {
    private static final int ITEMS = 3_000;

    @TempDir
    Path dir;

    /**
     * {@code count} items {@code id * 1_000_000 + seq}, pausing 1 ms every {@code pauseEvery}; at item
     * {@code waitAt} it waits for {@code gate}. Replayable, so it may run with checkpoints.
     */
    static final class Numbers extends Node<Void, Integer> implements Checkpointed {
        private final int id;
        private final int count;
        private final int pauseEvery;
        private final int waitAt;
        private final CountDownLatch gate;
        private int next;

        Numbers(int id, int count, int pauseEvery) {
            this(id, count, pauseEvery, -1, null);
        }

        Numbers(int id, int count, int pauseEvery, int waitAt, CountDownLatch gate) {
            this.id = id;
            this.count = count;
            this.pauseEvery = pauseEvery;
            this.waitAt = waitAt;
            this.gate = gate;
        }

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            if (next == count) {
                return eos();
            }
            if (next % pauseEvery == 0) {
                Thread.sleep(1); // spread the items over several checkpoint intervals
            }
            if (next == waitAt && !gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("source " + id + " waited 30 s at item " + waitAt);
            }
            return id * 1_000_000 + next++;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeInt(next);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            next = in.readInt();
        }
    }

    /** Records the input of each item; before each item, holds the inputs {@code held} names. */
    static final class Holder extends MultiInputNode<Integer, Void> {
        final List<Integer> channels = Collections.synchronizedList(new ArrayList<>());
        /** Counted down at the first item of input 0. */
        final CountDownLatch inputZeroRead = new CountDownLatch(1);

        private final HoldRule rule;

        interface HoldRule {
            /** Whether input {@code channel} is to be held, {@code seen} items in. */
            boolean held(int channel, int seen);
        }

        Holder(HoldRule rule) {
            this.rule = rule;
        }

        @Override
        protected void svcInit() {
            apply();
        }

        @Override
        protected Void svc(Integer item) {
            channels.add(inputChannel());
            if (inputChannel() == 0) {
                inputZeroRead.countDown();
            }
            apply();
            return goOn();
        }

        private void apply() {
            for (int ch = 0; ch < inputChannels(); ch++) {
                if (rule.held(ch, channels.size())) {
                    holdInput(ch);
                } else {
                    releaseInput(ch);
                }
            }
        }

        int firstIndexOf(IntPredicate channel) {
            for (int i = 0; i < channels.size(); i++) {
                if (channel.test(channels.get(i))) {
                    return i;
                }
            }
            return -1;
        }
    }

    private static Pipeline twoInto(Holder holder) {
        return new Pipeline(
                Farm.of(new Numbers(0, ITEMS, 500), new Numbers(1, ITEMS, 500)).collector(holder));
    }

    private static void assertEveryItemOnce(Holder holder) {
        assertThat(holder.channels).hasSize(2 * ITEMS);
        assertThat(holder.channels.stream().filter(ch -> ch == 0)).hasSize(ITEMS);
    }

    @Test
    void aHeldInputIsReadOnlyOnceEveryOtherInputEnded() {
        Holder holder = new Holder((channel, seen) -> channel == 0);

        twoInto(holder).runAndWaitEnd(RunOptions.defaults().queueCapacity(64));

        assertEveryItemOnce(holder);
        assertThat(holder.firstIndexOf(ch -> ch == 0))
                .as("input 0 was held until input 1, the only one left open, ended")
                .isEqualTo(ITEMS);
    }

    @Test
    void anInputLetGoIsReadAgain() {
        // Input 1 stops halfway until input 0 was read: were input 0 still held, that would never come.
        Holder holder = new Holder((channel, seen) -> channel == 0 && seen < 100);
        Numbers waiting = new Numbers(1, ITEMS, 500, ITEMS / 2, holder.inputZeroRead);

        new Pipeline(Farm.of(new Numbers(0, ITEMS, 500), waiting).collector(holder))
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(64));

        assertEveryItemOnce(holder);
        assertThat(holder.firstIndexOf(ch -> ch == 0))
                .as("input 0 held for the first 100 items")
                .isGreaterThanOrEqualTo(100);
    }

    @Test
    void holdingEveryInputHoldsNone() {
        Holder holder = new Holder((channel, seen) -> true);

        twoInto(holder).runAndWaitEnd(RunOptions.defaults().queueCapacity(64));

        assertEveryItemOnce(holder);
    }

    @Test
    void aHeldInputIsReadWhenTheOtherIsBlockedForACheckpointSoTheCheckpointCompletes() {
        // Input 0 held for good: its barrier can come only if the hold gives way while input 1 waits,
        // blocked, for it. Without that the run would hang at its first checkpoint.
        Holder holder = new Holder((channel, seen) -> channel == 0);
        Pipeline pipeline = new Pipeline(
                Farm.of(new Numbers(0, ITEMS, 100), new Numbers(1, ITEMS, 100)).collector(holder));

        pipeline.runAndWaitEnd(RunOptions.defaults()
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(2), CheckpointStore.directory(dir)));

        assertEveryItemOnce(holder);
        assertThat(pipeline.stats().checkpoints().orElseThrow().completed())
                .as("checkpoints completed while input 0 was held")
                .isGreaterThanOrEqualTo(2);
    }
}
