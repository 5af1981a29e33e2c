package org.fastflowj.core.runtime.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.runtime.channel.Chunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link Chunk} a bridge puts on a channel reaches the consumer's node item by item: same order, the
 * chunk's channel as {@code inputChannel()}, {@code eosNotify} only after every item before the EOS,
 * statistics per item. Driven here by a bridge task that stands for a receiver (only a bridge's chunks are
 * unrolled: the consumer's runner picks its unrolling loop when wired, by its producers).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChunkTest {
    /**
     * Stands for a receiver: on each output {@code k} sends {@code count} numbers tagged {@code k + 1}, in
     * chunks of 1, 2, 3, ... items (cycling to {@code max[k]}), some alone; the outputs take turns.
     */
    static final class ChunkingReceiver implements BridgeTask {
        private final int[] count;
        private final int[] max;
        private final int[] next;
        private final int[] size;
        private BridgeChannels channels;
        private int live;
        /** A run that found no room, per output, or null. */
        private final Object[] held;
        /** The output the runner waits for room on, or -1. */
        private int awaited = -1;

        ChunkingReceiver(int[] count, int[] max) {
            this.count = count;
            this.max = max;
            this.next = new int[count.length];
            this.size = new int[count.length];
            java.util.Arrays.fill(size, 1);
            this.live = count.length;
            this.held = new Object[count.length];
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
        }

        @Override
        public int doWork() {
            if (awaited >= 0) {
                if (!channels.hasRoom(awaited, false)) {
                    return 0;
                }
                channels.stopAwaitingRoom();
                awaited = -1;
            }
            int work = 0;
            for (int k = 0; k < count.length; k++) {
                if (held[k] != null) {
                    if (!channels.offer(k, false, held[k])) {
                        return awaitRoom(k, work);
                    }
                    held[k] = null;
                    work++;
                    continue;
                }
                if (next[k] > count[k]) {
                    continue;
                }
                if (next[k] == count[k]) {
                    if (!channels.tryEndOutput(k, false)) {
                        return awaitRoom(k, work);
                    }
                    work++;
                    next[k]++;
                    live--;
                    continue;
                }
                work++;
                long tag = (k + 1) * 1_000_000L;
                Object run;
                if (next[k] % 7 == 6) { // now and then an item alone, between chunks
                    run = tag + next[k]++;
                } else {
                    Chunk chunk = new Chunk(size[k]);
                    while (!chunk.isFull() && next[k] < count[k]) {
                        chunk.add(tag + next[k]++);
                    }
                    size[k] = size[k] == max[k] ? 1 : size[k] + 1;
                    run = chunk;
                }
                if (!channels.offer(k, false, run)) {
                    held[k] = run;
                    return awaitRoom(k, work);
                }
            }
            return work;
        }

        /** No room on output {@code k}: the runner's idle steps wait for it (doWork never blocks). */
        private int awaitRoom(int k, int work) {
            awaited = k;
            channels.awaitRoomOn(k, false);
            return work;
        }

        @Override
        public boolean workPending() {
            return awaited < 0 || channels.hasRoom(awaited, false);
        }

        @Override
        public boolean isDone() {
            return live == 0;
        }

        @Override
        public void close() {}
    }

    /** Records every item with the channel it came on, and how many it had from a channel at its eosNotify. */
    static final class Recorder extends MultiInputNode<Object, Void> {
        final List<long[]> seen = new CopyOnWriteArrayList<>();
        final List<String> ends = new CopyOnWriteArrayList<>();
        private final long[] perChannel = new long[4];

        @Override
        protected Void svc(Object item) {
            assertThat(item).isInstanceOf(Long.class); // never the chunk itself
            seen.add(new long[] {inputChannel(), (Long) item});
            perChannel[inputChannel()]++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add("eos " + channel + " after " + perChannel[channel]);
        }
    }

    @Test
    void shouldUnrollChunksInOrderOnASingleInput() {
        Node<Void, Long> remote = Node.of((Void none) -> 0L);
        Recorder sink = new Recorder();
        remote.createGroup("G1");
        sink.createGroup("G2");
        Graph g2 = BridgeGraphs.group(
                new Pipeline(remote, sink), "G2", null, new ChunkingReceiver(new int[] {1_000}, new int[] {9}));

        // a full channel of chunks too
        var stats = BridgeGraphs.run(g2, RunOptions.defaults().queueCapacity(4));

        assertThat(sink.seen).extracting(s -> s[1]).containsExactlyElementsOf(range(1_000_000, 1_000));
        assertThat(sink.ends).containsExactly("eos 0 after 1000");
        assertThat(stats.node(g2.vertices().get(0).name()).itemsIn()).isEqualTo(1_000);
    }

    @Test
    void shouldKeepEachChunksChannelWhileItIsUnrolledAmongOtherInputs() {
        Node<Void, Long> left = Node.of((Void none) -> 0L);
        Node<Void, Long> right = Node.of((Void none) -> 0L);
        Recorder sink = new Recorder();
        AllToAll a2a = new AllToAll().firstSet(left, right).secondSet(sink);
        a2a.createGroup("G1").include(left).include(right);
        a2a.createGroup("G2").include(sink);
        Graph g2 = BridgeGraphs.group(
                new Pipeline(a2a), "G2", null, new ChunkingReceiver(new int[] {3_000, 2_000}, new int[] {5, 17}));

        BridgeGraphs.run(g2, RunOptions.defaults().queueCapacity(8));

        List<Long> fromLeft = new ArrayList<>();
        List<Long> fromRight = new ArrayList<>();
        for (long[] s : sink.seen) {
            (s[0] == 0 ? fromLeft : fromRight).add(s[1]);
        }
        // every item on the channel it was sent on, in the order sent
        assertThat(fromLeft).containsExactlyElementsOf(range(1_000_000, 3_000));
        assertThat(fromRight).containsExactlyElementsOf(range(2_000_000, 2_000));
        assertThat(sink.ends).containsExactlyInAnyOrder("eos 0 after 3000", "eos 1 after 2000");
    }

    @Test
    void shouldRefuseAnEmptyChunkAndStopAddingWhenFull() {
        assertThatThrownBy(() -> new Chunk(0)).hasMessageContaining("at least 1 item");
        Chunk chunk = new Chunk(2);
        assertThat(chunk.add("a")).isTrue();
        assertThat(chunk.add("b")).isTrue();
        assertThat(chunk.add("c")).isFalse();
        assertThat(chunk.size()).isEqualTo(2);
        assertThat(chunk.isFull()).isTrue();
    }

    private static List<Long> range(long from, int count) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(from + i);
        }
        return out;
    }
}
