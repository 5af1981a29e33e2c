package org.fastflowj.core.runtime.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.spi.Sentinel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A channel into a bridge that gathers items into chunks: the consumer gets every item once, in order,
 * control values after the items before them; the queue holds the channel's capacity in items; and a
 * consumer that caught up takes items from the chunk still being filled, so nothing waits for a chunk to
 * fill.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChannelGatheringTest {
    private static List<Object> drain(SpscChannel ch) {
        List<Object> out = new ArrayList<>();
        for (Object item = ch.poll(); item != null; item = ch.poll()) {
            out.add(item);
        }
        return out;
    }

    @Test
    void shouldHandOverEveryItemInOrderWithTheEosLast() {
        SpscChannel ch = SpscChannel.gathering(64, 8, "test");
        List<Object> polled = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            assertThat(ch.offer(i)).isTrue();
            if (i % 37 == 0) { // now and then the consumer catches up, mid-chunk
                polled.addAll(drain(ch));
            }
            if (i % 50 == 49) {
                assertThat(ch.offer(Sentinel.TASK_DONE)).isTrue();
            }
        }
        assertThat(ch.offer(Sentinel.EOS)).isTrue();
        polled.addAll(drain(ch));

        List<Object> expected = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            expected.add(i);
            if (i % 50 == 49) {
                expected.add(Sentinel.TASK_DONE);
            }
        }
        expected.add(Sentinel.EOS);
        assertThat(polled).containsExactlyElementsOf(expected);
        assertThat(ch.hasItems()).isFalse();
    }

    @Test
    void shouldHoldItsCapacityInItemsPlusTheChunkBeingFilled() {
        SpscChannel ch = SpscChannel.gathering(64, 8, "test"); // 8 chunks in the queue, and one filling
        int accepted = 0;
        while (ch.offer((long) accepted)) {
            accepted++;
        }
        assertThat(accepted).isEqualTo(64 + 8);
        // the consumer takes one queued chunk: the producer may not go on before the low-water mark
        for (int i = 0; i < 8; i++) {
            assertThat(ch.poll()).isEqualTo((long) i);
        }
        assertThat(ch.producerMayResume()).isFalse();
        for (int i = 8; i < 40; i++) {
            assertThat(ch.poll()).isEqualTo((long) i);
        }
        assertThat(ch.producerMayResume()).isTrue();
        assertThat(ch.offer(-1L)).isTrue();
    }

    @Test
    void shouldLetTheConsumerTakeItemsFromTheChunkBeingFilled() {
        SpscChannel ch = SpscChannel.gathering(2048, 128, "test");
        assertThat(ch.hasItems()).isFalse();
        assertThat(ch.offer("a")).isTrue();
        assertThat(ch.hasItems()).isTrue(); // one item of 128: visible at once, not when the chunk is full
        assertThat(ch.poll()).isEqualTo("a");
        assertThat(ch.hasItems()).isFalse();
        assertThat(ch.poll()).isNull();
        assertThat(ch.offer("b")).isTrue();
        assertThat(ch.offer("c")).isTrue();
        assertThat(ch.poll()).isEqualTo("b");
        assertThat(ch.offer(Sentinel.EOS)).isTrue(); // seals the chunk: "a" and "b" were taken from it already
        assertThat(drain(ch)).containsExactly("c", Sentinel.EOS);
    }

    @Test
    void shouldHandOverEveryItemInOrderBetweenTwoThreads() throws Exception {
        int count = 2_000_000;
        for (int limit : new int[] {64, Integer.MAX_VALUE}) {
            SpscChannel ch = SpscChannel.gathering(limit, 16, "test");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            CompletableFuture<Long> consumer = CompletableFuture.supplyAsync(() -> {
                long expected = 0;
                for (; ; ) {
                    if (System.nanoTime() > deadline) { // never spin on after the test gave up
                        throw new AssertionError("took " + expected + " items in 30 s");
                    }
                    Object item = ch.poll();
                    if (item == null) {
                        Thread.yield();
                    } else if (item == Sentinel.EOS) {
                        return expected;
                    } else if ((Long) item != expected++) {
                        throw new AssertionError("got " + item + ", expected " + (expected - 1));
                    }
                }
            });
            for (long i = 0; i < count && !consumer.isDone(); i++) { // a failed consumer ends the test
                while (!ch.offer(i) && !consumer.isDone()) {
                    Thread.yield();
                }
                if (i % 100_000 == 0) {
                    LockSupport.parkNanos(100_000); // a pause: the consumer catches up and takes from open chunks
                }
            }
            while (!ch.offer(Sentinel.EOS) && !consumer.isDone()) {
                Thread.yield();
            }
            assertThat(consumer.get(30, TimeUnit.SECONDS)).isEqualTo(count);
        }
    }

    /** A sender stand-in: a bridge task that asks for gathering and records what it takes, per input channel. */
    static final class GatheringBridge implements BridgeTask, BridgeChannels.InputEvents {
        /** Written by the bridge's thread, read after the run (its end orders them). */
        final List<List<Long>> seen = List.of(new ArrayList<>(), new ArrayList<>());

        final List<String> ends = new CopyOnWriteArrayList<>();
        final CountDownLatch[] arrived;
        private BridgeChannels channels;
        private int live;

        GatheringBridge(int watched) {
            arrived = new CountDownLatch[watched];
            for (int i = 0; i < watched; i++) {
                arrived[i] = new CountDownLatch(1);
            }
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
            live = ch.forwardInputs();
        }

        @Override
        public int inputChunkCapacity() {
            return 128;
        }

        @Override
        public int doWork() throws Exception {
            int work = 0;
            for (int i = 0; i < channels.forwardInputs(); i++) {
                work += channels.drain(i, false, this, 64);
            }
            return work;
        }

        @Override
        public boolean workPending() {
            for (int i = 0; i < channels.forwardInputs(); i++) {
                if (channels.hasInput(i, false)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public boolean isDone() {
            return live == 0;
        }

        @Override
        public void close() {}

        @Override
        public void item(int channel, boolean feedback, Object value) {
            Long item = (Long) value;
            seen.get(channel).add(item);
            if (item < arrived.length) {
                arrived[item.intValue()].countDown();
            }
        }

        @Override
        public void inputEnded(int channel) {
            ends.add("eos " + channel + " after " + seen.get(channel).size());
            live--;
        }

        @Override
        public void taskDone(int channel) {}

        @Override
        public void feedbackEnded(int channel) {}
    }

    /** Sends 0, 1, ... count-1; item k+1 only once the bridge has item k, for the first {@code waitFor} items. */
    static final class WaitingSource extends Node<Void, Long> {
        private final int count;
        private final GatheringBridge bridge;
        private final int waitFor;
        private long next;

        WaitingSource(int count, GatheringBridge bridge, int waitFor) {
            this.count = count;
            this.bridge = bridge;
            this.waitFor = waitFor;
        }

        @Override
        protected Long svc(Void none) throws InterruptedException {
            if (next == count) {
                return eos();
            }
            if (next > 0 && next <= waitFor) {
                // A gathered item held back until its chunk filled would never arrive: fail, not hang.
                assertThat(bridge.arrived[(int) next - 1].await(10, TimeUnit.SECONDS))
                        .as("item %d reached the bridge alone", next - 1)
                        .isTrue();
            }
            return next++;
        }
    }

    @Test
    void shouldPassASlowStreamToTheBridgeItemByItem() {
        for (WaitStrategy strategy : WaitStrategy.values()) {
            GatheringBridge bridge = new GatheringBridge(20);
            Node<Void, Long> source = new WaitingSource(20, bridge, 20);
            Node<Long, Long> remote = Node.of((Long x) -> x);
            source.createGroup("G1");
            remote.createGroup("G2");
            Graph g1 = BridgeGraphs.group(new Pipeline(source, remote), "G1", bridge, null);
            BridgeGraphs.run(g1, RunOptions.defaults().waitStrategy(strategy));
            assertThat(bridge.seen.get(0)).as(strategy.name()).hasSize(20);
            assertThat(bridge.ends).containsExactly("eos 0 after 20");
        }
    }

    @Test
    void shouldGiveTheBridgeEveryItemOfEachChannelInOrderWithItsEosLast() {
        int perSource = 300_000;
        GatheringBridge bridge = new GatheringBridge(0);
        Node<Void, Long> first = new CountingSource(0, perSource);
        Node<Void, Long> second = new CountingSource(1_000_000_000L, perSource);

        Node<Long, Long> remote = Node.of((Long x) -> x);
        AllToAll a2a = new AllToAll().firstSet(first, second).secondSet(remote);
        a2a.createGroup("G1").include(first).include(second);
        a2a.createGroup("G2").include(remote);
        Graph g1 = BridgeGraphs.group(new Pipeline(a2a), "G1", bridge, null);
        var stats = BridgeGraphs.run(g1, RunOptions.defaults().queueCapacity(512));

        for (int channel = 0; channel < 2; channel++) {
            List<Long> items = bridge.seen.get(channel);
            assertThat(items).hasSize(perSource);
            long base = items.get(0) >= 1_000_000_000L ? 1_000_000_000L : 0;
            for (int i = 0; i < perSource; i++) {
                assertThat(items.get(i)).isEqualTo(base + i);
            }
        }
        assertThat(bridge.ends).containsExactlyInAnyOrder("eos 0 after " + perSource, "eos 1 after " + perSource);
        assertThat(stats.node("ff-send-G2").itemsIn()).isEqualTo(2L * perSource);
    }

    static final class CountingSource extends Node<Void, Long> {
        private final long base;
        private final int count;
        private int sent;

        CountingSource(long base, int count) {
            this.base = base;
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            if (sent == count) {
                return eos();
            }
            return base + sent++;
        }
    }
}
