package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TransportHandshakeTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);

    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    @Test
    void shouldOpenTheLinkOnBothSidesWithoutSecret() throws Exception {
        assertLinkOpens(settings("G2"), settings("G1"));
    }

    @Test
    void shouldOpenTheLinkOnBothSidesWhenBothHaveTheSameSecret() throws Exception {
        assertLinkOpens(settings("G2").withSecret(SECRET), settings("G1").withSecret(SECRET));
    }

    @Test
    void shouldRefuseAWrongSecretTellingTheClientNothingButWhereToLook() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(
                settings("G1").withSecret("other".getBytes(StandardCharsets.UTF_8)), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOfSatisfying(PeerRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON))
                .hasMessageContaining(
                        "group G2 at 127.0.0.1:" + server.boundAddress().getPort() + " refused the connection")
                .hasMessageContaining("the accepting group logs why");
        assertThat(next(serverEvents.refused).reason())
                .isEqualTo("authentication failed: wrong or missing secret (a peer claiming to be group G1)");
        assertThat(serverEvents.opened).isEmpty();
    }

    @Test
    void shouldRefuseAClientWithoutTheSecretTheServerExpects() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOfSatisfying(PeerRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON));
        assertThat(next(serverEvents.refused).reason()).startsWith("authentication failed");
    }

    @Test
    void shouldKeepTheFingerprintFromAClientWithoutSecretAndLogIt() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(WireSettings.defaults("G1", 0xabcdefL), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOfSatisfying(PeerRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON))
                .message()
                .doesNotContain("5eedf00d");
        assertThat(next(serverEvents.refused).reason()).contains("0xabcdef != 0x5eedf00d");
    }

    @Test
    void shouldFailWhenTheServerCannotProveTheSecret() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withSecret(SECRET), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("the peer did not prove the shared secret");
        assertThat(clientEvents.opened).isEmpty();
    }

    @Test
    void shouldTellAnAuthenticatedClientWithAnotherFingerprintBothFingerprints() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client =
                fixture.start(WireSettings.defaults("G1", 0xabcdefL).withSecret(SECRET), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageMatching(".*group G1 runs a different program or config: "
                        + "graph fingerprint 0xabcdef != 0x5eedf00d.*");
        assertThat(next(serverEvents.refused).reason()).contains("0xabcdef != 0x5eedf00d");
    }

    @Test
    void shouldTellAnAuthenticatedGroupThatItIsNotExpectedToConnect() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G7").withSecret(SECRET), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("group G2 at 127.0.0.1:")
                .hasMessageContaining("group G7 is not expected to connect to group G2");
        assertThat(next(serverEvents.refused).reason()).contains("G7");
    }

    @Test
    void shouldRefuseAClientThatWantedAnotherGroup() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withSecret(SECRET), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G3", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("wanted group G3 but this is group G2");
    }

    @Test
    void shouldRefuseASecondConnectionFromTheSameGroup() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withSecret(SECRET), Set.of(), clientEvents);
        PeerLink first = client.connect("G2", server.boundAddress());

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("is already connected");
        assertThat(first.isOpen()).isTrue();
    }

    @Test
    void shouldAcceptTheGroupAgainAfterItsFirstConnectionClosed() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);
        client.connect("G2", server.boundAddress()).close();
        next(serverEvents.closed);

        PeerLink again = client.connect("G2", server.boundAddress());

        assertThat(again.isOpen()).isTrue();
    }

    @Test
    void shouldTellAStrangerSpeakingTheProtocolNothingInItsRefusal() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);

        try (WireStranger stranger = new WireStranger(server.boundAddress())) {
            stranger.challenge();
            stranger.hello("who", "anyone", 1L);

            assertThat(stranger.refusal()).isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON);
            assertThat(stranger.closedByPeer()).isTrue();
            String everything = new String(stranger.receivedBytes(), StandardCharsets.ISO_8859_1);
            assertThat(everything)
                    .doesNotContain("G1", "G2", "5eedf00d", Long.toString(TransportFixture.FINGERPRINT))
                    .doesNotContain(new String(Longs.bytes(TransportFixture.FINGERPRINT), StandardCharsets.ISO_8859_1));
        }
        assertThat(next(serverEvents.refused).reason()).contains("group who wanted group anyone but this is group G2");
    }

    @Test
    void shouldRefuseAForgedHelloWithTheRightNamesAndFingerprintWhenThereIsASecret() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);

        try (WireStranger stranger = new WireStranger(server.boundAddress())) {
            stranger.challenge();
            stranger.hello("G1", "G2", TransportFixture.FINGERPRINT);

            assertThat(stranger.refusal()).isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON);
            assertThat(stranger.closedByPeer()).isTrue();
        }
        assertThat(next(serverEvents.refused).reason()).startsWith("authentication failed");
        assertThat(serverEvents.opened).isEmpty();
    }

    @Test
    void shouldNameAFrozenPeerAsWellAsTlsWhenNoChallengeComes() throws Exception {
        Transport client = fixture.start(settings("G1").withTimeouts(3_000, 500), Set.of(), clientEvents);
        // Accepted by the kernel's backlog, never answered: what a frozen (SIGSTOPped) group looks like.
        try (ServerSocket frozen = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> client.connect("G2", TransportFixture.loopback(frozen.getLocalPort())))
                    .isInstanceOf(PeerLinkFailedException.class)
                    .hasMessageContaining("handshake not completed within 500 ms: no CHALLENGE received (the peer is"
                            + " frozen or overloaded, or it uses TLS and this group does not)");
        }
    }

    @Test
    void shouldTryAgainWhenThePeerClosesAfterItsChallengeWithoutRefusing() throws Exception {
        Transport client = fixture.start(settings("G1").withTimeouts(1_500, 500), Set.of(), clientEvents);
        // What a group's previous run does with a connection meant for its next run: accepts, challenges,
        // then closes with its transport. The next run's listener may be up a moment later.
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket closing = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!closing.isClosed()) {
                    try (Socket s = closing.accept()) {
                        accepted.incrementAndGet();
                        ByteBuf challenge = Handshake.challenge(ByteBufAllocator.DEFAULT, new byte[16]);
                        byte[] bytes = new byte[challenge.readableBytes()];
                        challenge.readBytes(bytes);
                        challenge.release();
                        s.getOutputStream().write(bytes);
                        s.getOutputStream().flush();
                        s.getInputStream().read(); // the HELLO begins: close in mid-handshake
                    } catch (IOException e) {
                        return; // the test closed the listener
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();

            assertThatThrownBy(() -> client.connect("G2", TransportFixture.loopback(closing.getLocalPort())))
                    .isInstanceOf(PeerUnavailableException.class)
                    .hasMessageContaining("did not come up within 1500 ms")
                    .hasMessageContaining("closed the connection after its CHALLENGE without refusing it");
            assertThat(accepted.get()).as("connections the client tried").isGreaterThanOrEqualTo(2);
        }
    }

    private void assertLinkOpens(WireSettings serverSettings, WireSettings clientSettings) throws Exception {
        Transport server = fixture.start(serverSettings, Set.of("G1"), serverEvents);
        Transport client = fixture.start(clientSettings, Set.of(), clientEvents);

        PeerLink outbound = client.connect("G2", server.boundAddress());

        assertThat(outbound.peerGroup()).isEqualTo("G2");
        assertThat(outbound.inbound()).isFalse();
        assertThat(next(clientEvents.opened)).isSameAs(outbound);
        PeerLink inbound = next(serverEvents.opened);
        assertThat(inbound.peerGroup()).isEqualTo("G1");
        assertThat(inbound.inbound()).isTrue();
        assertThat(serverEvents.refused).isEmpty();
    }
}
