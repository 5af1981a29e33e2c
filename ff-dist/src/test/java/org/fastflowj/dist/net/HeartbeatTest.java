package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class HeartbeatTest {
    private static final long INTERVAL_MS = 200;
    private static final long TIMEOUT_MS = 1_000;

    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    @Test
    void shouldKeepAnIdleLinkAliveWithHeartbeats() throws Exception {
        Transport server =
                fixture.start(settings("G2").withHeartbeat(INTERVAL_MS, TIMEOUT_MS), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withHeartbeat(INTERVAL_MS, TIMEOUT_MS), Set.of(), clientEvents);
        PeerLink link = client.connect("G2", server.boundAddress());

        Thread.sleep(3 * TIMEOUT_MS); // the idle period under test: only heartbeats keep the link up

        assertThat(link.isOpen()).isTrue();
        assertThat(serverEvents.closed).isEmpty();
        assertThat(serverEvents.frames)
                .as("heartbeats never reach the layer above")
                .isEmpty();
    }

    /**
     * A frame that takes longer than the time-out to cross a slow link: its bytes keep coming, so the link
     * is alive, although no whole frame (and no heartbeat: the sender's writer is busy) arrives within the
     * time-out.
     */
    @Test
    void shouldKeepALinkAliveWhileAFrameLongerThanTheTimeoutCrawlsAcrossIt() throws Exception {
        assertAFrameCrawlsAcrossTheTimeout(
                settings("G2").withHeartbeat(INTERVAL_MS, TIMEOUT_MS),
                settings("G1").withHeartbeat(INTERVAL_MS, TIMEOUT_MS),
                fixture);
    }

    /**
     * Sends one 600 KiB frame from group G1 ({@code client}) to G2 ({@code server}) through a proxy that
     * passes about 200 KiB/s, so that it takes about 3 s, and checks that it arrives whole on a link that
     * stayed open. The settings' heartbeat time-out must be at most 1 s.
     */
    static void assertAFrameCrawlsAcrossTheTimeout(WireSettings server, WireSettings client, TransportFixture fixture)
            throws Exception {
        assertThat(server.heartbeatTimeoutMs()).as("the frame takes about 3 s").isLessThanOrEqualTo(1_000);
        RecordingPeerHandler serverEvents = new RecordingPeerHandler();
        RecordingPeerHandler clientEvents = new RecordingPeerHandler();
        Transport receiving = fixture.start(server, Set.of("G1"), serverEvents);
        Transport sending = fixture.start(client, Set.of(), clientEvents);
        try (PausableProxy proxy = new PausableProxy(receiving.boundAddress())) {
            PeerLink link = sending.connect("G2", proxy.address());
            next(serverEvents.opened);
            proxy.throttleUpstream(4096, 20); // 4 KiB every 20 ms: about 200 KiB/s
            byte[] payload = new byte[600 * 1024];
            new Random(7).nextBytes(payload);
            long sentAt = System.nanoTime();
            link.send(Frames.BATCH, link.alloc().buffer(payload.length).writeBytes(payload));

            RecordingPeerHandler.Frame frame = next(serverEvents.frames);
            long tookMs = (System.nanoTime() - sentAt) / 1_000_000;

            assertThat(tookMs)
                    .as("the frame must crawl for longer than two time-outs")
                    .isGreaterThan(2 * server.heartbeatTimeoutMs());
            assertThat(frame.payload()).isEqualTo(payload);
            assertThat(serverEvents.closed)
                    .as("closed while bytes were arriving")
                    .isEmpty();
            assertThat(clientEvents.closed).isEmpty();
            assertThat(link.isOpen()).isTrue();
        }
    }

    @Test
    void shouldDetectASilentLinkOnBothEndsWithinTheTimeout() throws Exception {
        Transport server =
                fixture.start(settings("G2").withHeartbeat(INTERVAL_MS, TIMEOUT_MS), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withHeartbeat(INTERVAL_MS, TIMEOUT_MS), Set.of(), clientEvents);
        try (PausableProxy proxy = new PausableProxy(server.boundAddress())) {
            client.connect("G2", proxy.address());
            next(serverEvents.opened);

            long pausedAt = System.nanoTime();
            proxy.pause();
            var onClient = next(clientEvents.closed);
            var onServer = next(serverEvents.closed);
            long detectedMs = (System.nanoTime() - pausedAt) / 1_000_000;

            assertThat(detectedMs).isLessThanOrEqualTo(TIMEOUT_MS + 1_000);
            assertThat(onClient.cause())
                    .isInstanceOf(PeerLinkFailedException.class)
                    .hasMessageMatching("no data or heartbeat from group G2 at 127\\.0\\.0\\.1:\\d+ for 1000 ms");
            assertThat(onServer.cause()).hasMessageStartingWith("no data or heartbeat from group G1 at 127.0.0.1:");
        }
    }
}
