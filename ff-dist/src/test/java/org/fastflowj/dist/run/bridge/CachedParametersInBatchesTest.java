package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.TestLinks;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.serial.ItemCodec;
import org.fastflowj.patterns.crossing.CrossingParameters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Macro data-flow parameters in the batches of one link: an item that does not fit its frame is cut off
 * and written again into the next batch, and the receiver, reading the batches in order, gets each value
 * it is referred to, because the second writing stands on its own.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CachedParametersInBatchesTest {
    /** What carries the parameters across, as a macro data-flow task does. */
    record Carrier(CrossingParameters parameters) {}

    private static final SerializationConfig SERIALIZATION =
            SerializationConfig.builder().register(Carrier.class).build();
    private static final int[] FORWARD = {7};
    private static final int[] FEEDBACK = {};
    /** Two 8 KiB blocks fit in a frame, three do not. */
    private static final int MAX_FRAME_BYTES = 20_000;

    private final EmbeddedChannel channel = new EmbeddedChannel();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private static Carrier reading(long id, double value) {
        double[] block = new double[1024];
        Arrays.fill(block, value);
        return new Carrier(
                new CrossingParameters(new Object[] {block}, new boolean[] {false}, new long[] {id}, new int[] {0}));
    }

    @Test
    void shouldSendInFullAgainWhatAnItemCutOffItsBatchHadSentInFull() {
        OutboundLink out = new OutboundLink("A", "B", 16, 1L << 30, FORWARD, FEEDBACK);
        out.open(TestLinks.embedded("B", false, channel));
        BatchWriter writer = new BatchWriter(
                out, new ItemCodec(SERIALIZATION, 1000, 1L << 20), new BatchSizer(1_000, 100_000), MAX_FRAME_BYTES);

        writer.item(reading(1, 1), 7);
        writer.item(reading(2, 2), 7);
        writer.item(reading(3, 3), 7); // too much for the frame: the first two go, this one starts the next
        writer.item(reading(3, 3), 7); // the same block again: a reference to what the second batch kept
        assertThat(writer.flush()).isTrue();

        List<Object> read = readAll();
        assertThat(read).hasSize(4);
        assertThat((double[]) value(read.get(2))).containsOnly(3.0);
        assertThat(value(read.get(3))).isSameAs(value(read.get(2)));
    }

    private static Object value(Object carrier) {
        return ((Carrier) carrier).parameters().value(0);
    }

    /** Every frame sent so far, read in order by one receiving codec, as the receiving group does. */
    private List<Object> readAll() {
        BatchReader reader = new BatchReader("A", FORWARD, FEEDBACK, new ItemCodec(SERIALIZATION, 1000, 1L << 20));
        List<Object> items = new ArrayList<>();
        int frames = 0;
        for (ByteBuf frame; (frame = channel.readOutbound()) != null; ) {
            frames++;
            try {
                frame.skipBytes(Frames.LENGTH_BYTES);
                assertThat(frame.readByte()).isEqualTo(Frames.BATCH);
                reader.start();
                reader.readOn(frame, new BatchReader.Outputs() {
                    @Override
                    public void item(int output, Object item, int bytes) {
                        items.add(item);
                    }

                    @Override
                    public void taskDone(int output) {}

                    @Override
                    public void barrier(int output, long id) {}

                    @Override
                    public void ended(int output) {}
                });
            } finally {
                frame.release();
            }
        }
        assertThat(frames).as("the third item started a batch of its own").isEqualTo(2);
        return items;
    }
}
