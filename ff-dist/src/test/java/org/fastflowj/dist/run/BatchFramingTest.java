package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a batch carries besides its items: Kryo names an unregistered class once per batch and refers to
 * it by id after that, so sender and receiver must start every batch at the same point of the stream,
 * including when a batch is split because its last item made it too large for a frame.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchFramingTest {
    record Small(int n) {}

    record Labelled(String label, long n) {}

    record Big(int n, byte[] bytes) {}

    /** Emits {@code items} in order. */
    static final class Replay extends Node<Void, Object> {
        private final List<Object> items;
        private int next;

        Replay(List<Object> items) {
            this.items = items;
        }

        @Override
        protected Object svc(Void none) {
            return next == items.size() ? eos() : items.get(next++);
        }
    }

    /** Keeps what arrives, in order. */
    static final class Keep extends Node<Object, Void> {
        final List<Object> received = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Void svc(Object item) {
            received.add(item);
            return goOn();
        }
    }

    private static List<Object> mixedStream(int count, int bigEvery, int bigBytes) {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            switch (i % 5) {
                case 0 -> items.add(new Small(i));
                case 1 -> items.add(new Labelled("item-" + i, i * 7L));
                case 2 -> items.add(List.of(new Small(i), new Labelled("in-list", i)));
                case 3 -> items.add(new byte[] {(byte) i, 1, 2});
                default -> items.add(Map.of("k" + i, new Small(-i)));
            }
            if (i % bigEvery == bigEvery - 1) {
                items.add(new Big(i, new byte[bigBytes]));
            }
        }
        return items;
    }

    private static List<Object> comparable(List<Object> items) {
        // byte[] has identity equality: compare contents through a List
        return items.stream()
                .map(o -> o instanceof byte[] b ? List.of(b[0], b[1], b[2]) : o instanceof Big big ? big.n() : o)
                .toList();
    }

    private static List<Object> runCut(List<Object> items, String topLevel) throws Exception {
        Replay source = new Replay(items);
        Keep sink = new Keep();
        Pipeline program = new Pipeline(source, sink);
        source.createGroup("A");
        sink.createGroup("B");
        SerializationConfig serialization = SerializationConfig.builder()
                .allowPackage("org.fastflowj.dist.run")
                .build();
        LocalCluster.run(
                program, LocalCluster.config(List.of("A", "B"), topLevel), serialization, RunOptions.defaults(), 45);
        return sink.received;
    }

    @Test
    void shouldDeliverUnregisteredClassesOfManyKindsInOrderWhateverTheBatchSize() throws Exception {
        List<Object> items = mixedStream(2_000, 1_000_000, 0);
        for (int batchSize : new int[] {1, 3, 64}) {
            List<Object> received = runCut(items, "\"batchSize\": " + batchSize + ", \"messageOTF\": 2");
            assertThat(comparable(received)).as("batchSize " + batchSize).isEqualTo(comparable(items));
        }
    }

    @Test
    void shouldSplitABatchWhoseLastItemOverflowsTheFrameAndKeepEveryClassReadable() throws Exception {
        // 1 KiB frames, batches of up to 32 items, an item of ~600 bytes every 7 items: most batches end early
        // because the big item does not fit, and it opens the next batch, written again from scratch.
        List<Object> items = mixedStream(700, 7, 600);
        List<Object> received = runCut(items, "\"batchSize\": 32, \"maxFrameBytes\": 1024");
        assertThat(comparable(received)).isEqualTo(comparable(items));
    }

    @Test
    void shouldReadBatchesOnEitherSideOfTheHeapCopyLimitAlike() throws Exception {
        // Batches up to BatchWriter.HEAP_BATCH_MAX_BYTES are built and read in heap memory, bigger ones in
        // direct memory: runs of small items and runs of 40 KiB arrays make the batches cross that line
        // both ways, and every array must arrive whole.
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            boolean bigRun = (i / 20) % 2 == 1;
            if (bigRun) {
                byte[] big = new byte[40 * 1024];
                java.util.Arrays.fill(big, (byte) i);
                items.add(new Big(i, big));
            } else {
                items.add(new Labelled("small-" + i, i));
            }
        }
        List<Object> received = runCut(items, "\"batchSize\": 4");
        assertThat(received).hasSize(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object sent = items.get(i);
            Object got = received.get(i);
            if (sent instanceof Big big) {
                assertThat(got).isInstanceOf(Big.class);
                assertThat(((Big) got).n()).isEqualTo(big.n());
                assertThat(((Big) got).bytes()).as("item " + i).isEqualTo(big.bytes());
            } else {
                assertThat(got).isEqualTo(sent);
            }
        }
    }

    @Test
    void shouldDeliverByteArraysOfBigFramesWholeWhateverTheirSize() throws Exception {
        // Frames above FrameDecoder's heap-copy limit reach the receiver as slices of several reads: items
        // of up to 100 KiB in batches of 8 cross the reads' boundaries anywhere, headers included.
        java.util.Random random = new java.util.Random(3);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            byte[] bytes = new byte[random.nextInt(4) == 0 ? random.nextInt(16) : random.nextInt(100 * 1024)];
            random.nextBytes(bytes);
            items.add(bytes);
        }
        List<Object> received = runCut(items, "\"batchSize\": 8");
        assertThat(received).hasSize(items.size());
        for (int i = 0; i < items.size(); i++) {
            assertThat((byte[]) received.get(i)).as("item " + i).isEqualTo((byte[]) items.get(i));
        }
    }

    @Test
    void shouldFailNamingMaxFrameBytesWhenOneItemAloneIsTooLarge() {
        List<Object> items = mixedStream(10, 5, 4_000);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> runCut(items, "\"batchSize\": 4, \"maxFrameBytes\": 1024"))
                .hasStackTraceContaining("larger than maxFrameBytes (1024)");
    }
}
