package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How items travel inside a batch and after it: the sender writes consecutive items of one edge as one
 * run (kind, edge and count once), the receiver hands each batch's items for one channel to it as one
 * chunk (at most {@link ReceiverNode#CHUNK_MAX_BYTES} of them), and the consumer still sees them one by
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

    /** A Long {@code tag * 1e6 + i}, or with {@code payloadBytes > 0} an array of that many bytes headed by it. */
    static Object make(int tag, int i, int payloadBytes) {
        long value = tag * 1_000_000L + i;
        if (payloadBytes == 0) {
            return value;
        }
        long[] words = new long[payloadBytes / Long.BYTES];
        Arrays.fill(words, value);
        return words;
    }

    static long valueOf(Object item) {
        return item instanceof Long l ? l : ((long[]) item)[0];
    }

    /** Records each item's channel and value, and at each eosNotify how many that channel had brought. */
    static final class Recorder extends MultiInputNode<Object, Void> {
        final List<long[]> seen = new CopyOnWriteArrayList<>();
        final List<String> ends = new CopyOnWriteArrayList<>();
        private final long[] perChannel = new long[2];
        volatile boolean wholeArrays = true;

        @Override
        protected Void svc(Object item) {
            if (item instanceof long[] words && Arrays.stream(words).anyMatch(w -> w != words[0])) {
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
        assertThat(64 * payload).isGreaterThan(ReceiverNode.CHUNK_MAX_BYTES * 2);
        Recorder sink = runTwoIntoOne(600, 400, payload, "\"batchSize\": 64");
        assertEveryItemOnItsChannelInOrder(sink, 600, 400);
        assertThat(sink.wholeArrays).isTrue();
    }

    private static List<Long> range(long from, int count) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(from + i);
        }
        return out;
    }
}
