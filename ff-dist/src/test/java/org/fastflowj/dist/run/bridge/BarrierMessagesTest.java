package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.TestLinks;
import org.fastflowj.dist.run.link.CorruptBatchException;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.serial.ItemCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's barrier in a batch: a BARRIER message of its own for its edge, with the checkpoint's id,
 * read back in its place among the edge's items, whichever edges interleave and wherever the reading
 * pauses; on a feedback edge it is refused as corrupt.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BarrierMessagesTest {
    private static final SerializationConfig SERIALIZATION = SerializationConfig.defaults();
    private static final int[] FORWARD = {7, 9};
    private static final int[] FEEDBACK = {3};

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final BatchWriter writer = writer();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldReadItemsABarrierMoreItemsAndTheEndOfOneEdgeInOrder() {
        writer.item(10L, 7);
        writer.item(11L, 7);
        writer.barrier(7, Long.MAX_VALUE - 1);
        writer.item(12L, 7);
        writer.mark(Frames.EOS, 7);

        assertThat(writer.messages()).as("items and marks alike").isEqualTo(5);
        assertThat(readSent(false))
                .containsExactly("0 item 10", "0 item 11", "0 barrier " + (Long.MAX_VALUE - 1), "0 item 12", "0 ended");
    }

    @Test
    void shouldKeepEachEdgesOrderWhenEdgesInterleave() {
        writer.item(1L, 7);
        writer.item(2L, 9);
        writer.barrier(7, 5);
        writer.item(3L, 9);
        writer.barrier(9, 5);
        writer.item(4L, 7);
        writer.barrier(7, 6);
        writer.mark(Frames.EOS, 9);
        writer.mark(Frames.EOS, 7);

        List<String> expected = List.of(
                "0 item 1",
                "2 item 2",
                "0 barrier 5",
                "2 item 3",
                "2 barrier 5",
                "0 item 4",
                "0 barrier 6",
                "2 ended",
                "0 ended");
        assertThat(readSent(false)).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldGoOnAfterABarrierWhereTheReadingPaused() {
        writer.item(1L, 7);
        writer.item(2L, 7);
        writer.barrier(7, 8);
        writer.barrier(9, 8);
        writer.item(3L, 7);
        writer.mark(Frames.EOS, 7);

        assertThat(readSent(true))
                .containsExactly("0 item 1", "0 item 2", "0 barrier 8", "2 barrier 8", "0 item 3", "0 ended");
    }

    @Test
    void shouldRefuseABarrierForAFeedbackEdgeAsCorrupt() {
        writer.item(1L, 3);
        writer.barrier(3, 2);

        assertThatThrownBy(() -> readSent(false))
                .isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("group A")
                .hasMessageContaining("checkpoint barrier for feedback edge 3");
    }

    private BatchWriter writer() {
        OutboundLink out = new OutboundLink("A", "B", 16, 1L << 30, FORWARD, FEEDBACK);
        out.open(TestLinks.embedded("B", false, channel));
        return new BatchWriter(out, new ItemCodec(SERIALIZATION), new BatchSizer(1_000, 100_000), 1 << 20);
    }

    /** Flushes the batch and reads it back as the receiving group does, pausing after every message if asked. */
    private List<String> readSent(boolean pauseEach) {
        assertThat(writer.flush()).as("the batch went").isTrue();
        ByteBuf frame = channel.readOutbound();
        try {
            frame.skipBytes(Frames.LENGTH_BYTES);
            assertThat(frame.readByte()).isEqualTo(Frames.BATCH);
            BatchReader reader = new BatchReader("A", FORWARD, FEEDBACK, new ItemCodec(SERIALIZATION));
            Noted noted = new Noted(reader, pauseEach);
            reader.start();
            int reads = 1;
            while (!reader.readOn(frame, noted)) {
                reads++;
            }
            assertThat(reader.messages()).as("barriers count as messages").isEqualTo(noted.events.size());
            if (pauseEach) {
                assertThat(reads).as("one read per message").isEqualTo(noted.events.size() + 1);
            }
            return noted.events;
        } finally {
            frame.release();
        }
    }

    /** Notes what the batch holds for each output, as {@code "OUTPUT what"}. */
    private static final class Noted implements BatchReader.Outputs {
        final List<String> events = new ArrayList<>();
        private final BatchReader reader;
        private final boolean pauseEach;

        Noted(BatchReader reader, boolean pauseEach) {
            this.reader = reader;
            this.pauseEach = pauseEach;
        }

        private void note(int output, String what) {
            events.add(output + " " + what);
            if (pauseEach) {
                reader.pause();
            }
        }

        @Override
        public void item(int output, Object item, int bytes) {
            note(output, "item " + item);
        }

        @Override
        public void taskDone(int output) {
            note(output, "task done");
        }

        @Override
        public void barrier(int output, long id) {
            note(output, "barrier " + id);
        }

        @Override
        public void ended(int output) {
            note(output, "ended");
        }
    }
}
