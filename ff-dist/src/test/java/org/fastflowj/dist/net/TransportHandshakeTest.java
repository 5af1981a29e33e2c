package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
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
    void shouldRefuseAWrongSecretWithTheReasonOnBothSides() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(
                settings("G1").withSecret("other".getBytes(StandardCharsets.UTF_8)), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining(
                        "group G2 at 127.0.0.1:" + server.boundAddress().getPort())
                .hasMessageContaining("authentication failed: wrong or missing secret");
        assertThat(next(serverEvents.refused).reason()).isEqualTo("authentication failed: wrong or missing secret");
        assertThat(serverEvents.opened).isEmpty();
    }

    @Test
    void shouldRefuseAClientWithoutTheSecretTheServerExpects() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOfSatisfying(PeerRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo("authentication failed: wrong or missing secret"));
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
    void shouldRefuseADifferentFingerprintNamingBothFingerprints() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(WireSettings.defaults("G1", 0xabcdefL), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageMatching(".*group G1 at 127\\.0\\.0\\.1:\\d+ runs a different program or config: "
                        + "graph fingerprint 0xabcdef != 0x5eedf00d.*");
        assertThat(next(serverEvents.refused).reason()).contains("0xabcdef != 0x5eedf00d");
    }

    @Test
    void shouldRefuseAGroupThatIsNotExpectedToConnect() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G7"), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("group G7 at 127.0.0.1:")
                .hasMessageContaining("is not expected to connect to group G2");
        assertThat(next(serverEvents.refused).reason()).contains("G7");
    }

    @Test
    void shouldRefuseAClientThatWantedAnotherGroup() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G3", server.boundAddress()))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("wanted group G3 but this is group G2");
    }

    @Test
    void shouldRefuseASecondConnectionFromTheSameGroup() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);
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
