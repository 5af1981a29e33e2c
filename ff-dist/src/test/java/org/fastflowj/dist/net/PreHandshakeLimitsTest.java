package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an unauthenticated connection can hold: small frames, and one of a bounded number of slots. */
@Timeout(60)
class PreHandshakeLimitsTest {
    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final List<WireStranger> strangers = new ArrayList<>();

    @AfterEach
    void closeEverything() throws IOException {
        for (WireStranger stranger : strangers) {
            stranger.close();
        }
        fixture.close();
    }

    @Test
    void shouldCutAFrameOfMoreThanAFewKiBBeforeTheHandshake() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);

        try (WireStranger stranger = new WireStranger(server.boundAddress())) {
            stranger.challenge();
            byte[] header =
                    ByteBuffer.allocate(5).putInt(1 << 20).put(Frames.HELLO).array();
            stranger.write(header);
            try {
                stranger.write(new byte[64 * 1024]);
            } catch (IOException e) {
                // already cut: fine
            }
            assertThat(stranger.closedByPeer()).isTrue();
        }
        assertThat(next(serverEvents.refused).reason())
                .contains("frame of 1048576 bytes before the handshake completed")
                .contains("at most " + FrameDecoder.HANDSHAKE_MAX_FRAME_BYTES);
        assertConnects(server);
    }

    @Test
    void shouldCloseConnectionsBeyondTheCapAtOnceAndServeAgainWhenTheyEnd() throws Exception {
        Transport server = fixture.start(settings("G2").withTimeouts(3_000, 30_000), Set.of("G1"), serverEvents);
        fillHandshakeSlots(server);

        try (WireStranger oneTooMany = new WireStranger(server.boundAddress())) {
            assertThat(oneTooMany.closedByPeer()).isTrue(); // no CHALLENGE: closed before a byte was read
        }
        for (WireStranger stranger : strangers) {
            stranger.close();
        }
        for (int i = 0; i < HandshakeAdmission.MAX_PENDING_HANDSHAKES; i++) {
            next(serverEvents.refused); // each slot is freed as its connection ends
        }
        assertConnects(server);
    }

    @Test
    void shouldRetryAPeerAtItsCapAndConnectOnceASlotFrees() throws Exception {
        Transport server = fixture.start(settings("G2").withTimeouts(3_000, 30_000), Set.of("G1"), serverEvents);
        Transport client =
                fixture.start(settings("G1").withTimeouts(20_000, 5_000), Set.of(), new RecordingPeerHandler());
        fillHandshakeSlots(server);

        CompletableFuture<PeerLink> connecting =
                CompletableFuture.supplyAsync(() -> client.connect("G2", server.boundAddress()));
        // The window under test: the client meets the full house, retries, and must not fail meanwhile.
        Thread.sleep(500);
        assertThat(connecting).isNotDone();
        strangers.get(0).close();

        assertThat(connecting.get(15, TimeUnit.SECONDS).isOpen()).isTrue();
    }

    /** Opens as many connections as there are handshake slots, each waiting after the CHALLENGE. */
    private void fillHandshakeSlots(Transport server) throws IOException {
        for (int i = 0; i < HandshakeAdmission.MAX_PENDING_HANDSHAKES; i++) {
            WireStranger stranger = new WireStranger(server.boundAddress());
            strangers.add(stranger);
            stranger.challenge(); // admitted: it got its CHALLENGE
        }
    }

    private void assertConnects(Transport server) {
        Transport client = fixture.start(settings("G1"), Set.of(), new RecordingPeerHandler());
        assertThat(client.connect("G2", server.boundAddress()).isOpen()).isTrue();
    }
}
