package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

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
