package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TransportLinkTest {
    private static final byte BATCH = 0x10;
    private static final byte CREDIT = 0x11;

    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();
    private Transport server;
    private Transport client;
    private PeerLink outbound;
    private PeerLink inbound;

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    private void connect() throws InterruptedException {
        server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        client = fixture.start(settings("G1"), Set.of(), clientEvents);
        outbound = client.connect("G2", server.boundAddress());
        inbound = next(serverEvents.opened);
    }

    @Test
    void shouldCarryDataOneWayAndRepliesTheOther() throws Exception {
        connect();
        outbound.send(BATCH, utf8(outbound, "batch-1"));
        var data = next(serverEvents.frames);
        assertThat(data.type()).isEqualTo(BATCH);
        assertThat(new String(data.payload(), StandardCharsets.UTF_8)).isEqualTo("batch-1");
        assertThat(data.refCntAfterRelease()).isZero();
        assertThat(data.link()).isSameAs(inbound);

        inbound.sendAndFlushLater(CREDIT, utf8(inbound, "credit-1"));
        inbound.sendAndFlushLater(CREDIT, utf8(inbound, "credit-2"));
        inbound.flush();

        assertThat(new String(next(clientEvents.frames).payload(), StandardCharsets.UTF_8))
                .isEqualTo("credit-1");
        assertThat(new String(next(clientEvents.frames).payload(), StandardCharsets.UTF_8))
                .isEqualTo("credit-2");
    }

    @Test
    void shouldCarryLargePayloadsAndEmptyOnesIntact() throws Exception {
        connect();
        byte[] big = new byte[64 * 1024];
        Arrays.fill(big, (byte) 7);
        outbound.send(BATCH, outbound.alloc().directBuffer().writeBytes(big));
        outbound.send(BATCH, outbound.alloc().buffer(0));

        assertThat(next(serverEvents.frames).payload()).isEqualTo(big);
        assertThat(next(serverEvents.frames).payload()).isEmpty();
    }

    @Test
    void shouldRejectTransportFrameTypesAndReleaseThePayload() throws Exception {
        connect();
        ByteBuf payload = outbound.alloc().buffer().writeInt(1);

        assertThatThrownBy(() -> outbound.send(Frames.HEARTBEAT, payload))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved for the transport");
        assertThat(payload.refCnt()).isZero();
    }

    @Test
    void shouldReportACleanCloseByThePeerWithoutCause() throws Exception {
        connect();
        outbound.close();

        var closedOnServer = next(serverEvents.closed);
        assertThat(closedOnServer.link()).isSameAs(inbound);
        assertThat(closedOnServer.cause()).isNull();
        assertThat(next(clientEvents.closed).cause()).isNull();
    }

    @Test
    void shouldReportAResetWithItsCause() throws Exception {
        connect();
        // Linger 0 makes close() send RST instead of FIN.
        outbound.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        outbound.channel().close();

        var closedOnServer = next(serverEvents.closed);
        assertThat(closedOnServer.cause())
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("group G1 at 127.0.0.1:")
                .hasMessageContaining("reset");
    }

    @Test
    void shouldReportEachCloseOnceEvenWhenTheTransportClosesAfterwards() throws Exception {
        connect();
        outbound.close();
        next(serverEvents.closed);
        server.close();
        client.close();

        assertThat(serverEvents.closed).isEmpty();
        assertThat(clientEvents.closed).hasSize(1);
    }

    @Test
    void shouldCloseIdempotentlyAndQuicklyReportingOpenLinksClosed() throws Exception {
        connect();
        long start = System.nanoTime();
        server.close();
        server.close();
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(tookMs).isLessThan(2_500);
        assertThat(next(serverEvents.closed).cause()).isNull();
        assertThat(next(clientEvents.closed).link()).isSameAs(outbound);
    }

    private static ByteBuf utf8(PeerLink link, String text) {
        return link.alloc().buffer().writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
