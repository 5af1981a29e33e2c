package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link Chunk} a bridge puts on a channel reaches the consumer's node item by item: same order, the
 * chunk's channel as {@code inputChannel()}, {@code eosNotify} only after every item before the EOS,
 * statistics per item. Driven here by sources that stand for bridges (only a bridge's chunks are unrolled:
 * the consumer's runner picks its unrolling loop when wired, by its producers).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChunkTest {
    /** Sends {@code count} numbers tagged with its index, in chunks of 1, 2, 3, ... items (cycling to max), some alone. */
    static final class ChunkingSource extends MultiOutputNode<Void, Object> implements BridgeNode {
        private final long tag;
        private final int count;
        private final int max;
        private int next;
        private int size = 1;

        ChunkingSource(long tag, int count, int max) {
            this.tag = tag;
            this.count = count;
            this.max = max;
        }

        @Override
        public void attach(BridgeContext context) {
            // a source that ends its own stream needs none of a bridge's channel powers
        }

        @Override
        protected Object svc(Void none) {
            if (next == count) {
                return eos();
            }
            if (next % 7 == 6) { // now and then an item alone, between chunks
                sendOut(tag * 1_000_000 + next++);
                return goOn();
            }
            Chunk chunk = new Chunk(size);
            while (!chunk.isFull() && next < count) {
                chunk.add(tag * 1_000_000 + next++);
            }
            size = size == max ? 1 : size + 1;
            sendOut(chunk);
            return goOn();
        }
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
        ChunkingSource source = new ChunkingSource(0, 1_000, 9);
        Recorder sink = new Recorder();
        Pipeline pipe = new Pipeline(source, sink);

        pipe.runAndWaitEnd(RunOptions.defaults().queueCapacity(4)); // a full channel of chunks too

        assertThat(sink.seen).extracting(s -> s[1]).containsExactlyElementsOf(range(0, 1_000));
        assertThat(sink.ends).containsExactly("eos 0 after 1000");
        RunStats stats = pipe.stats();
        assertThat(stats.node("ff-pipe1-stage1").orElseThrow().itemsIn()).isEqualTo(1_000);
    }

    @Test
    void shouldKeepEachChunksChannelWhileItIsUnrolledAmongOtherInputs() {
        ChunkingSource left = new ChunkingSource(1, 3_000, 5);
        ChunkingSource right = new ChunkingSource(2, 2_000, 17);
        Recorder sink = new Recorder();
        AllToAll a2a = new AllToAll().firstSet(left, right).secondSet(sink);

        new Pipeline(a2a).runAndWaitEnd(RunOptions.defaults().queueCapacity(8));

        List<Long> fromLeft = new ArrayList<>();
        List<Long> fromRight = new ArrayList<>();
        for (long[] s : sink.seen) {
            (s[0] == 0 ? fromLeft : fromRight).add(s[1]);
        }
        // every item on the channel of the source that sent it, in the order sent
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
