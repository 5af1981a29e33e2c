package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class TlsTransportTest {
    @TempDir
    static Path dir;

    /** Each group's certificate carries its name as CN; the TLS names say so. */
    private static final Map<String, String> NAMES = Map.of("G1", "G1", "G2", "G2");

    private static X509Bundle ca;
    private static Path trust;
    private static TlsFiles g1Files;
    private static TlsFiles g2Files;
    private static TlsFiles g3Files;

    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();

    /** A test CA and one certificate per group, valid for the loopback address. */
    @BeforeAll
    static void createCertificates() throws Exception {
        ca = new CertificateBuilder()
                .subject("CN=ff-dist test CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        trust = write("ca.pem", ca.getCertificatePEM());
        g1Files = groupFiles(ca, "G1", trust);
        g2Files = groupFiles(ca, "G2", trust);
        g3Files = groupFiles(ca, "G3", trust);
    }

    private static TlsFiles groupFiles(X509Bundle ca, String group, Path trust) throws Exception {
        X509Bundle cert = new CertificateBuilder()
                .subject("CN=" + group)
                .addSanIpAddress("127.0.0.1")
                .addSanDnsName("localhost")
                .ecp256()
                .buildIssuedBy(ca);
        return new TlsFiles(
                write(group + ".pem", cert.getCertificatePathPEM()),
                write(group + ".key", cert.getPrivateKeyPEM()),
                trust);
    }

    private static Path write(String name, String pem) throws Exception {
        return Files.writeString(dir.resolve(name), pem, StandardCharsets.US_ASCII);
    }

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    /**
     * As {@code HeartbeatTest}'s crawling frame, under TLS: the records the TLS layer decrypts while the
     * frame crosses a slow link are data, so the link stays alive past the time-out.
     */
    @Test
    void shouldKeepATlsLinkAliveWhileAFrameLongerThanTheTimeoutCrawlsAcrossIt() throws Exception {
        HeartbeatTest.assertAFrameCrawlsAcrossTheTimeout(
                settings("G2").withTls(g2Files, NAMES).withHeartbeat(200, 1_000),
                settings("G1").withTls(g1Files, NAMES).withHeartbeat(200, 1_000),
                fixture);
    }

    @Test
    void shouldCarryFramesOverMutualTls() throws Exception {
        Transport server = fixture.start(settings("G2").withTls(g2Files, NAMES), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g1Files, NAMES), Set.of(), clientEvents);

        PeerLink link = client.connect("G2", server.boundAddress());
        link.send((byte) 0x10, link.alloc().buffer().writeLong(99));

        assertThat(link.channel().pipeline().get("ssl")).isNotNull();
        assertThat(next(serverEvents.frames).payload()).hasSize(8);
    }

    @Test
    void shouldFailCleanlyOnBothSidesWhenAPlainClientMeetsATlsServer() throws Exception {
        Transport server = fixture.start(settings("G2").withTls(g2Files, NAMES), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("handshake with group G2 at 127.0.0.1:")
                .hasMessageContaining("it uses TLS and this group does not");
        assertThat(next(serverEvents.refused).reason()).contains("TLS");
    }

    @Test
    void shouldRefuseAClientWhoseCertificateFromTheSameCaNamesAnotherGroup() throws Exception {
        Transport server = fixture.start(settings("G2").withTls(g2Files, NAMES), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g3Files, NAMES), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOfSatisfying(PeerRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo(ServerHandshakeHandler.UNDISCLOSED_REASON));
        assertThat(next(serverEvents.refused).reason())
                .contains("group G1 presented the wrong certificate: the certificate names [CN=G3,")
                .contains("must present one for 'G1'");
        assertThat(serverEvents.opened).isEmpty();
    }

    @Test
    void shouldRefuseAServerWhoseCertificateFromTheSameCaNamesAnotherGroup() throws Exception {
        Transport server = fixture.start(settings("G2").withTls(g3Files, NAMES), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g1Files, NAMES), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("handshake with group G2 at 127.0.0.1:")
                .hasMessageContaining("the server presented the wrong certificate: the certificate names [CN=G3,")
                .hasMessageContaining("must present one for 'G2'");
        assertThat(next(serverEvents.refused).reason()).contains("closed");
        assertThat(serverEvents.opened).isEmpty();
    }

    @Test
    void shouldAcceptCertificatesNamingTheTlsNamesAsIpOrDnsSubjectAlternativeNames() throws Exception {
        // G1's certificate carries IP 127.0.0.1, G2's DNS localhost: the endpoint hosts of a config.
        Map<String, String> byEndpoint = Map.of("G1", "127.0.0.1", "G2", "LOCALHOST");
        Transport server = fixture.start(settings("G2").withTls(g2Files, byEndpoint), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g1Files, byEndpoint), Set.of(), clientEvents);

        assertThat(client.connect("G2", server.boundAddress()).isOpen()).isTrue();
        assertThat(next(serverEvents.opened).peerGroup()).isEqualTo("G1");
    }

    @Test
    void shouldRefuseAGroupWhoseTlsNameIsUnknown() throws Exception {
        Transport server =
                fixture.start(settings("G2").withTls(g2Files, Map.of("G2", "G2")), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g1Files, NAMES), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress())).isInstanceOf(PeerRefusedException.class);
        assertThat(next(serverEvents.refused).reason()).contains("no TLS name is known for group G1");
    }

    @Test
    void shouldFailCleanlyWhenATlsClientMeetsAPlainServer() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withTls(g1Files, NAMES), Set.of(), clientEvents);

        assertThatThrownBy(() -> client.connect("G2", server.boundAddress()))
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("group G2 at 127.0.0.1:");
        assertThat(next(serverEvents.refused).reason()).isNotBlank();
    }
}
