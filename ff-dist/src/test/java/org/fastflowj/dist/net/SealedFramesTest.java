package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.settings;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Frames after the handshake carry a MAC when there is a secret and no TLS: nothing can be slipped in. */
@Timeout(60)
class SealedFramesTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEY = Handshake.frameKey(SECRET, new byte[16], new byte[16], true);
    private static final byte DATA = 0x10;

    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    @Test
    void shouldPassSealedFramesInOrderAndDropTheMacFrames() {
        List<byte[]> wire = seal("one", "two", "three");
        EmbeddedChannel receiver = opener();

        feed(receiver, wire);

        assertThat(List.of(readText(receiver), readText(receiver), readText(receiver)))
                .containsExactly("one", "two", "three");
        assertThat(receiver.inboundMessages()).isEmpty();
        receiver.finishAndReleaseAll();
    }

    @Test
    void shouldFailNamingThePeerWhenAByteWasChanged() {
        List<byte[]> wire = seal("one", "two");
        wire.get(2)[7] ^= 1; // a payload byte of the second frame
        assertRejected(wire, "frame 1 failed authentication");
    }

    @Test
    void shouldFailWhenAFrameIsReplayed() {
        List<byte[]> wire = seal("one", "two");
        assertRejected(List.of(wire.get(0), wire.get(1), wire.get(0), wire.get(1)), "frame 1 failed authentication");
    }

    @Test
    void shouldFailWhenAFrameIsDropped() {
        List<byte[]> wire = seal("one", "two", "three");
        assertRejected(List.of(wire.get(0), wire.get(1), wire.get(4), wire.get(5)), "frame 1 failed authentication");
    }

    @Test
    void shouldFailWhenAFrameComesWithoutItsMac() {
        List<byte[]> wire = seal("one", "two");
        assertRejected(List.of(wire.get(0), wire.get(2)), "frame 0 came without its MAC");
    }

    @Test
    void shouldFailWhenTheKeyIsAnother() {
        EmbeddedChannel sender =
                new EmbeddedChannel(new FrameSealer(Handshake.frameKey(SECRET, new byte[16], new byte[16], false)));
        sender.writeOutbound(Frames.encode(sender.alloc(), DATA, text("one")));
        List<byte[]> wire = drain(sender);
        assertRejected(wire, "frame 0 failed authentication");
    }

    @Test
    void shouldSealAForcedLoopbackLinkAndCarryFramesBothWays() throws Exception {
        PeerLink outbound = connectSealed(null);

        assertThat(outbound.channel().pipeline().get(FrameSealer.class)).isNotNull();
        outbound.send(DATA, text("data"));
        assertThat(new String(next(serverEvents.frames).payload(), StandardCharsets.UTF_8))
                .isEqualTo("data");
        PeerLink inbound = next(serverEvents.opened);
        inbound.send(DATA, text("credit"));
        assertThat(new String(next(clientEvents.frames).payload(), StandardCharsets.UTF_8))
                .isEqualTo("credit");
    }

    @Test
    void shouldKeepAnIdleSealedLinkAliveWithSealedHeartbeats() throws Exception {
        Transport server = fixture.start(sealed("G2").withHeartbeat(100, 500), Set.of("G1"), serverEvents);
        Transport client = fixture.start(sealed("G1").withHeartbeat(100, 500), Set.of(), clientEvents);
        PeerLink link = client.connect("G2", server.boundAddress());

        Thread.sleep(1_500); // the idle period under test, three heartbeat timeouts: every heartbeat had a valid MAC

        assertThat(link.isOpen()).isTrue();
        assertThat(serverEvents.closed).isEmpty();
        assertThat(clientEvents.closed).isEmpty();
    }

    @Test
    void shouldNotSealALoopbackLinkUnlessAsked() throws Exception {
        Transport server = fixture.start(settings("G2").withSecret(SECRET), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1").withSecret(SECRET), Set.of(), clientEvents);

        PeerLink outbound = client.connect("G2", server.boundAddress());

        assertThat(outbound.channel().pipeline().get(FrameSealer.class)).isNull();
    }

    @Test
    void shouldFailTheLinkNamingThePeerWhenAByteIsChangedOnTheWay() throws Exception {
        Transport server = fixture.start(sealed("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(sealed("G1"), Set.of(), clientEvents);
        try (PausableProxy proxy = new PausableProxy(server.boundAddress())) {
            PeerLink outbound = client.connect("G2", proxy.address());
            PeerLink inbound = next(serverEvents.opened);
            outbound.send(DATA, text("intact"));
            assertThat(new String(next(serverEvents.frames).payload(), StandardCharsets.UTF_8))
                    .isEqualTo("intact");

            // HELLO, the first frame and its MAC went by; flip a byte of the second frame's payload.
            long sent = helloBytes() + frameBytes("intact") + 37;
            proxy.corruptUpstreamByte(sent + Frames.HEADER_BYTES + 2);
            outbound.send(DATA, text("tampered"));

            var closed = next(serverEvents.closed);
            assertThat(closed.link()).isSameAs(inbound);
            assertThat(closed.cause())
                    .isInstanceOf(PeerLinkFailedException.class)
                    .hasMessageContaining("group G1 at 127.0.0.1:")
                    .hasMessageContaining("frame 1 failed authentication");
            assertThat(serverEvents.frames).isEmpty();
        }
    }

    private PeerLink connectSealed(PausableProxy proxyOrNull) {
        Transport server = fixture.start(sealed("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(sealed("G1"), Set.of(), clientEvents);
        return client.connect("G2", proxyOrNull == null ? server.boundAddress() : proxyOrNull.address());
    }

    private static WireSettings sealed(String group) {
        return settings(group).withSecret(SECRET).withFramesSealedOnLoopback(true);
    }

    private static int helloBytes() {
        return Frames.HEADER_BYTES + 6 + 4 + 4 + 8 + Handshake.NONCE_BYTES + Handshake.PROOF_BYTES;
    }

    private static int frameBytes(String text) {
        return Frames.HEADER_BYTES + text.getBytes(StandardCharsets.UTF_8).length;
    }

    private void assertRejected(List<byte[]> wire, String expected) {
        EmbeddedChannel receiver = opener();
        assertThatThrownBy(() -> feed(receiver, wire))
                .isInstanceOf(PeerLinkFailedException.class)
                .hasMessageContaining("group G1 at 10.0.0.1:9000 broke the frame authentication")
                .hasMessageContaining(expected);
        receiver.finishAndReleaseAll();
    }

    /** The bytes the sealer writes for each text: frame, MAC frame, frame, MAC frame... */
    private static List<byte[]> seal(String... texts) {
        EmbeddedChannel sender = new EmbeddedChannel(new FrameSealer(KEY));
        for (String t : texts) {
            sender.writeOutbound(Frames.encode(sender.alloc(), DATA, text(t)));
        }
        return drain(sender);
    }

    private static List<byte[]> drain(EmbeddedChannel sender) {
        List<byte[]> wire = new ArrayList<>();
        for (ByteBuf out; (out = sender.readOutbound()) != null; ) {
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            out.release();
            wire.add(bytes);
        }
        sender.finishAndReleaseAll();
        return wire;
    }

    private static EmbeddedChannel opener() {
        return new EmbeddedChannel(new FrameDecoder(4096), new FrameOpener(KEY, "group G1 at 10.0.0.1:9000"));
    }

    private static void feed(EmbeddedChannel receiver, List<byte[]> wire) {
        for (byte[] bytes : wire) {
            receiver.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOf(bytes, bytes.length)));
        }
        receiver.checkException();
    }

    private static String readText(EmbeddedChannel receiver) {
        ByteBuf frame = receiver.readInbound();
        try {
            assertThat(frame.readByte()).isEqualTo(DATA);
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }

    private static ByteBuf text(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }
}
