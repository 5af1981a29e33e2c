package org.fastflowj.dist.run.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.TestLinks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The credit window of one connection, in batches and in bytes, at both ends: the sender keeps at most
 * {@code messageOTF} batches and (up to the batch that crosses it) the receiving group's {@code
 * maxBufferedBytesPerLink} bytes unacknowledged; the receiver refuses a peer that goes beyond either, and
 * its ACK gives both back.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CreditWindowTest {
    private static final int KIB = 1024;

    private final EmbeddedChannel channel = new EmbeddedChannel();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldKeepTwoHundredFiftySixSmallBatchesInFlightByDefault() {
        DffConfig config = DffConfig.parse(
                "{ \"groups\": [ { \"name\": \"A\", \"endpoint\": \"h:1\" }, { \"name\": \"B\", \"endpoint\": \"h:2\" } ] }",
                "app.json");
        GroupConfig b = config.group("B").orElseThrow();
        OutboundLink out = sender(b.messageOTF(), b.maxBufferedBytesPerLink());

        // 512 B messages in batches of 8: FastFlow's 64 such batches are 256 KiB, too few for a 1 Gbit/s link
        for (int i = 0; i < 256; i++) {
            assertThat(out.windowOpen()).as("window before batch %d", i).isTrue();
            assertThat(out.trySend(batch(4 * KIB), 8)).isTrue();
        }

        assertThat(out.windowOpen()).as("window after 256 batches").isFalse();
        assertThat(out.bytesInFlight()).isEqualTo(256L * 4 * KIB);
        assertThat(channel.outboundMessages()).hasSize(256);
    }

    @Test
    void shouldCloseTheWindowAtTheReceiversBytesWhileBatchCreditsAreLeft() {
        OutboundLink out = sender(256, 256 * KIB);

        for (int i = 0; i < 4; i++) {
            assertThat(out.windowOpen()).as("window before batch %d", i).isTrue();
            assertThat(out.trySend(batch(64 * KIB), 1)).isTrue();
        }

        assertThat(out.windowOpen()).as("after 256 KiB in 4 batches").isFalse();
        out.onAck(1, 64 * KIB);
        assertThat(out.windowOpen()).as("after one batch's ACK").isTrue();
        assertThat(out.bytesInFlight()).isEqualTo(192 * KIB);
        assertThat(out.trySend(batch(64 * KIB), 1)).isTrue();
        assertThat(out.windowOpen()).isFalse();
        out.onAck(4, 256 * KIB);
        assertThat(out.bytesInFlight()).isZero();
        assertThat(out.windowOpen()).isTrue();
    }

    @Test
    void shouldStillHoldABatchCountSetInTheConfig() {
        OutboundLink out = sender(2, 32L << 20);

        assertThat(out.trySend(batch(100), 1)).isTrue();
        assertThat(out.trySend(batch(100), 1)).isTrue();

        assertThat(out.windowOpen())
                .as("2 batches of 100 bytes in flight: messageOTF 2 still bounds batches")
                .isFalse();
        out.onAck(1, 100);
        assertThat(out.windowOpen()).isTrue();
    }

    @Test
    void shouldSendABatchLargerThanTheWholeByteWindowAlone() {
        OutboundLink out = sender(256, 256 * KIB);

        assertThat(out.windowOpen()).isTrue();
        assertThat(out.trySend(batch(1024 * KIB), 16)).isTrue();

        assertThat(out.windowOpen()).isFalse();
        out.onAck(1, 1024 * KIB);
        assertThat(out.windowOpen()).isTrue();
    }

    @Test
    void shouldRefuseABatchWithoutWaitingWhileTheWindowIsClosedAndTakeItOnceAnAckOpensIt() {
        OutboundLink out = sender(1, 32L << 20);
        assertThat(out.trySend(batch(100), 1)).isTrue();
        ByteBuf waiting = batch(200);

        assertThat(out.trySend(waiting, 2)).as("no credit left").isFalse();
        assertThat(out.trySend(waiting, 2))
                .as("refused again, still without waiting")
                .isFalse();
        assertThat(waiting.refCnt()).as("the caller keeps the refused batch").isEqualTo(1);
        assertThat(channel.outboundMessages()).as("only the first batch left").hasSize(1);
        assertThat(out.windowOpenOrStopped()).isFalse();

        out.onAck(1, 100);
        assertThat(out.windowOpenOrStopped())
                .as("the sender's re-check after the ACK")
                .isTrue();
        assertThat(out.trySend(waiting, 2)).isTrue();
        assertThat(channel.outboundMessages()).hasSize(2);
        assertThat(out.bytesInFlight()).isEqualTo(200);
        assertThat(out.stats().messages()).isEqualTo(3);
    }

    @Test
    void shouldRefuseAnAckOfMoreBytesThanAreInFlight() {
        OutboundLink out = sender(256, 256 * KIB);
        assertThat(out.trySend(batch(100), 1)).isTrue();

        assertThatThrownBy(() -> out.onAck(1, 101))
                .isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("group B")
                .hasMessageContaining("acknowledged 1 batches of 101 bytes, with 100 bytes unacknowledged");
    }

    @Test
    void shouldRefuseAPeerThatSendsWhileItsByteWindowIsFull() {
        InboundLink in = receiver(256, 256 * KIB);

        for (int i = 0; i < 4; i++) {
            in.onBatch(batch(64 * KIB)); // the 4th fills the window: a correct sender sends it, then waits
        }

        assertThatThrownBy(() -> in.onBatch(batch(100)))
                .isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("group A at")
                .hasMessageContaining("broke the flow-control protocol")
                .hasMessageContaining("while 262144 bytes were unacknowledged")
                .hasMessageContaining("fewer than 262144 are (maxBufferedBytesPerLink of this group)");
        assertThat(in.onClosed(null)).contains("broke the flow-control protocol");
        in.drop();
    }

    @Test
    void shouldRefuseAPeerThatSendsBeyondItsBatchCreditsWhateverTheirBytes() {
        InboundLink in = receiver(4, 32L << 20);

        for (int i = 0; i < 4; i++) {
            in.onBatch(batch(10));
        }

        assertThatThrownBy(() -> in.onBatch(batch(10)))
                .isInstanceOf(CorruptBatchException.class)
                .hasMessageContaining("beyond the 4 unacknowledged batches");
        in.drop();
    }

    @Test
    void shouldGiveBytesBackInTheAckAndAcceptTheNextBatch() {
        InboundLink in = receiver(256, 256 * KIB);
        for (int i = 0; i < 4; i++) {
            in.onBatch(batch(64 * KIB));
        }
        ByteBuf first = in.poll();
        int firstBytes = first.readableBytes();
        first.release();
        in.batchRead(firstBytes, 0);

        in.ack(1, firstBytes, 1);
        channel.runPendingTasks(); // the receiver asked the event loop to look at the paused link again

        ByteBuf ack = channel.readOutbound();
        try {
            assertThat(ack.readInt()).as("frame length").isEqualTo(Frames.TYPE_BYTES + Integer.BYTES + Long.BYTES);
            assertThat(ack.readByte()).isEqualTo(Frames.ACK);
            assertThat(ack.readInt()).as("batches").isEqualTo(1);
            assertThat(ack.readLong()).as("bytes").isEqualTo(64 * KIB);
        } finally {
            ack.release();
        }
        in.onBatch(batch(64 * KIB)); // the window holds 192 KiB before it: accepted
        assertThatThrownBy(() -> in.onBatch(batch(1))).isInstanceOf(CorruptBatchException.class);
        in.drop();
    }

    private OutboundLink sender(int credits, long maxBytesInFlight) {
        OutboundLink out = new OutboundLink("A", "B", credits, maxBytesInFlight, new int[] {0}, new int[0]);
        out.open(TestLinks.embedded("B", false, channel));
        return out;
    }

    private InboundLink receiver(int credits, long maxBytes) {
        InboundLink in = new InboundLink("B", "A", credits, maxBytes);
        in.onOpen(TestLinks.embedded("A", true, channel));
        return in;
    }

    /** A batch of {@code payloadBytes}, with room for the frame header in front as the sender leaves it. */
    private static ByteBuf batch(int payloadBytes) {
        ByteBuf b = Unpooled.buffer(Frames.HEADER_BYTES + payloadBytes);
        b.writerIndex(Frames.HEADER_BYTES + payloadBytes).readerIndex(Frames.HEADER_BYTES);
        return b;
    }
}
