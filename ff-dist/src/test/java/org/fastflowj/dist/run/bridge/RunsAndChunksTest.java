package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.run.GroupRun;
import org.fastflowj.dist.run.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How items travel inside a batch and after it: the sender writes consecutive items of one edge as one
 * run (kind, edge and count once), the receiver hands each batch's items for one channel to it as one
 * chunk (at most {@link ReceiverTask#CHUNK_MAX_BYTES} of them), and the consumer still sees them one by
 * one, on their own channel, in order, with {@code eosNotify} after the last.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RunsAndChunksTest {
    /** Emits {@code count} items {@code make(tag, i)}. */
    static final class Emitter extends Node<Void, Object> {
        private final int tag;
        private final int count;
        private final int payloadBytes;
        private int next;

        Emitter(int tag, int count, int payloadBytes) {
            this.tag = tag;
            this.count = count;
            this.payloadBytes = payloadBytes;
        }

        @Override
        protected Object svc(Void none) {
            return next == count ? eos() : make(tag, next++, payloadBytes);
        }
    }

    /**
     * A Long {@code tag * 1e6 + i}, or with {@code payloadBytes > 0} an array of that many bytes headed by
     * it and filled with its low byte (an array, so its serialized size is its length plus a few bytes).
     */
    static Object make(int tag, int i, int payloadBytes) {
        long value = tag * 1_000_000L + i;
        if (payloadBytes == 0) {
            return value;
        }
        byte[] bytes = new byte[payloadBytes];
        Arrays.fill(bytes, (byte) value);
        ByteBuffer.wrap(bytes).putLong(value);
        return bytes;
    }

    static long valueOf(Object item) {
        return item instanceof Long l ? l : ByteBuffer.wrap((byte[]) item).getLong();
    }

    /** Whether an array from {@link #make} arrived whole: every byte after the head is the head's low byte. */
    static boolean whole(byte[] bytes) {
        byte fill = (byte) valueOf(bytes);
        for (int i = Long.BYTES; i < bytes.length; i++) {
            if (bytes[i] != fill) {
                return false;
            }
        }
        return true;
    }

    /** Records each item's channel and value, and at each eosNotify how many that channel had brought. */
    static final class Recorder extends MultiInputNode<Object, Void> {
        final List<long[]> seen = new CopyOnWriteArrayList<>();
        final List<String> ends = new CopyOnWriteArrayList<>();
        private final long[] perChannel = new long[2];
        volatile boolean wholeArrays = true;

        @Override
        protected Void svc(Object item) {
            if (item instanceof byte[] bytes && !whole(bytes)) {
                wholeArrays = false;
            }
            seen.add(new long[] {inputChannel(), valueOf(item)});
            perChannel[inputChannel()]++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add("eos " + channel + " after " + perChannel[channel]);
        }
    }

    /**
     * Two producers in group A, one multi-input consumer in group B: A's sender interleaves the two edges,
     * so its batches hold runs of both, and B's receiver fills a chunk per channel per batch.
     */
    private static Recorder runTwoIntoOne(int leftCount, int rightCount, int payloadBytes, String topLevel)
            throws Exception {
        Recorder sink = new Recorder();
        AllToAll a2a = new AllToAll()
                .firstSet(new Emitter(1, leftCount, payloadBytes), new Emitter(2, rightCount, payloadBytes))
                .secondSet(sink);
        a2a.createGroup("A")
                .include(a2a.firstSet().get(0))
                .include(a2a.firstSet().get(1));
        a2a.createGroup("B").include(sink);
        LocalCluster.run(
                new Pipeline(a2a),
                LocalCluster.config(List.of("A", "B"), topLevel),
                SerializationConfig.builder().build(),
                RunOptions.defaults().queueCapacity(4), // a few chunks fill a channel: the receiver waits too
                60);
        return sink;
    }

    private static void assertEveryItemOnItsChannelInOrder(Recorder sink, int leftCount, int rightCount) {
        List<Long> left = new ArrayList<>();
        List<Long> right = new ArrayList<>();
        for (long[] s : sink.seen) {
            (s[0] == 0 ? left : right).add(s[1]);
        }
        assertThat(left).containsExactlyElementsOf(range(1_000_000, leftCount));
        assertThat(right).containsExactlyElementsOf(range(2_000_000, rightCount));
        assertThat(sink.ends).containsExactlyInAnyOrder("eos 0 after " + leftCount, "eos 1 after " + rightCount);
    }

    @Test
    void shouldDeliverInterleavedRunsOfTwoEdgesItemByItemOnTheirOwnChannels() throws Exception {
        for (int batchSize : new int[] {1, 7, 128}) {
            Recorder sink = runTwoIntoOne(20_000, 13_000, 0, "\"batchSize\": " + batchSize);
            assertEveryItemOnItsChannelInOrder(sink, 20_000, 13_000);
        }
    }

    @Test
    void shouldCutChunksOfLargeItemsAtTheByteLimitAndKeepThemWhole() throws Exception {
        // 3 KiB items, 64 per batch: a batch's items for one channel exceed CHUNK_MAX_BYTES, so the
        // receiver sends several chunks per channel per batch
        int payload = 3 * 1024;
        assertThat(64 * payload).isGreaterThan(ReceiverTask.CHUNK_MAX_BYTES * 2);
        Recorder sink = runTwoIntoOne(600, 400, payload, "\"batchSize\": 64");
        assertEveryItemOnItsChannelInOrder(sink, 600, 400);
        assertThat(sink.wholeArrays).isTrue();
    }

    /** Counts what arrives. */
    static final class Counter extends Node<Object, Void> {
        volatile int received;

        @Override
        protected Void svc(Object item) {
            received++;
            return goOn();
        }
    }

    /** Runs source (group A) -> sink (group B) and returns how many hand-offs B's receiver made. */
    private static long receiverHandOffs(int items, int payloadBytes, int batchSize) throws Exception {
        Counter sink = new Counter();
        Emitter source = new Emitter(1, items, payloadBytes);
        Pipeline program = new Pipeline(source, sink);
        source.createGroup("A");
        sink.createGroup("B");
        DffConfig config = LocalCluster.config(List.of("A", "B"), "\"batchSize\": " + batchSize);
        CompletableFuture<Execution> a = CompletableFuture.supplyAsync(
                () -> GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("A", config)));
        Execution b = GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("B", config));
        Execution aRun = a.get(30, TimeUnit.SECONDS);
        assertThat(aRun.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(b.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sink.received).isEqualTo(items);
        return b.stats().node("ff-recv-A").orElseThrow().itemsOut();
    }

    private static DFF.Settings settings(String group, DffConfig config) {
        return new DFF.Settings(group, config, SerializationConfig.builder().build(), false);
    }

    @Test
    void shouldHandEachBatchToItsChannelAsChunksOfAtMostTheByteLimit() throws Exception {
        // small items, 128 a batch: a hand-off per batch (the stream may flush some batches early)
        long small = receiverHandOffs(10_000, 0, 128);
        assertThat(small).isLessThan(10_000 / 8).isGreaterThanOrEqualTo(10_000 / 128);

        // 3 KiB items, 64 a batch: a chunk is cut once it holds 16 KiB, so at most 6 items each
        int payload = 3 * 1024;
        int perChunk = ReceiverTask.CHUNK_MAX_BYTES / payload + 1;
        long large = receiverHandOffs(640, payload, 64);
        assertThat(large).isGreaterThanOrEqualTo(640 / perChunk).isLessThan(640 / 2);
    }

    private static List<Long> range(long from, int count) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(from + i);
        }
        return out;
    }
}
