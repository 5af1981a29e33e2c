package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class GarbageInputTest {
    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private Transport server;

    @BeforeEach
    void startServer() {
        server = fixture.start(settings("G2").withTimeouts(3_000, 1_000), Set.of("G1"), serverEvents);
    }

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    @Test
    void shouldDropRandomBytes() throws Exception {
        byte[] noise = new byte[4096];
        new Random(42).nextBytes(noise);
        assertDroppedAndStillServing(noise);
    }

    @Test
    void shouldDropAHugeLengthWithoutAllocatingIt() throws Exception {
        assertDroppedAndStillServing(frameHeader(Integer.MAX_VALUE, Frames.HELLO));
    }

    @Test
    void shouldDropANegativeLength() throws Exception {
        assertDroppedAndStillServing(frameHeader(-5, Frames.HELLO));
    }

    @Test
    void shouldDropAZeroLength() throws Exception {
        assertDroppedAndStillServing(new byte[] {0, 0, 0, 0});
    }

    @Test
    void shouldDropAnHttpRequest() throws Exception {
        assertDroppedAndStillServing("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldReportATruncatedFrameThenClose() throws Exception {
        try (Socket socket = new Socket(
                server.boundAddress().getAddress(), server.boundAddress().getPort())) {
            socket.getOutputStream().write(frameHeader(100, Frames.HELLO));
            socket.getOutputStream().write(new byte[10]);
            socket.shutdownOutput();
            readUntilClosed(socket);
            assertThat(next(serverEvents.refused).remote()).isEqualTo(socket.getLocalSocketAddress());
        }
        assertStillServing();
    }

    @Test
    void shouldRefuseAnApplicationFrameBeforeTheHandshake() throws Exception {
        assertDroppedAndStillServing(frameHeader(1, (byte) 0x10));
        assertThat(serverEvents.refused).isEmpty(); // consumed by the helper; checked there
    }

    @Test
    void shouldRefuseAPeerThatNeverCompletesTheHandshake() throws Exception {
        try (Socket socket = new Socket(
                server.boundAddress().getAddress(), server.boundAddress().getPort())) {
            String received = new String(readUntilClosed(socket), StandardCharsets.UTF_8);
            assertThat(received)
                    .contains(ServerHandshakeHandler.UNDISCLOSED_REASON)
                    .doesNotContain("G2");
            assertThat(next(serverEvents.refused).reason())
                    .isEqualTo("handshake not completed within 1000 ms: no HELLO received (the peer is frozen or"
                            + " overloaded, or it uses TLS and this group does not)");
        }
    }

    @Test
    void shouldCloseAnOpenLinkThatSendsACorruptFrame() throws Exception {
        Transport client = fixture.start(settings("G1"), Set.of(), new RecordingPeerHandler());
        PeerLink link = client.connect("G2", server.boundAddress());
        next(serverEvents.opened);

        // Raw bytes bypass the framing of PeerLink.send: a length nobody may allocate.
        link.channel()
                .writeAndFlush(Unpooled.buffer().writeInt(Integer.MAX_VALUE).writeByte(0x10));

        assertThat(next(serverEvents.closed).cause())
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("group G1 at 127.0.0.1:")
                .hasMessageContaining("exceeds");
        assertStillServing();
    }

    private void assertDroppedAndStillServing(byte[] garbage) throws Exception {
        try (Socket socket = new Socket(
                server.boundAddress().getAddress(), server.boundAddress().getPort())) {
            socket.getOutputStream().write(garbage);
            readUntilClosed(socket);
            var refused = next(serverEvents.refused);
            assertThat(refused.remote()).isEqualTo(socket.getLocalSocketAddress());
            assertThat(refused.reason()).isNotBlank();
        }
        assertStillServing();
    }

    private void assertStillServing() throws InterruptedException {
        Transport client = fixture.start(settings("G1"), Set.of(), new RecordingPeerHandler());
        PeerLink link = client.connect("G2", server.boundAddress());
        assertThat(link.isOpen()).isTrue();
        link.close();
    }

    /** Everything the server sent until it closed (or reset) the connection. */
    private static byte[] readUntilClosed(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1024];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                received.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // closed with unread input on the server: also a close
        }
        return received.toByteArray();
    }

    private static byte[] frameHeader(int length, byte type) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(length);
        out.writeByte(type);
        return bytes.toByteArray();
    }
}
