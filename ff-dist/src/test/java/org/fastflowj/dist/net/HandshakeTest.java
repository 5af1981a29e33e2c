package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class HandshakeTest {
    private static final byte[] SECRET = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NONCE = new byte[Handshake.NONCE_BYTES];

    @Test
    void shouldRoundTripAHelloThroughItsWireForm() {
        var hello = new Handshake.Hello("G1", "Gruppe-ü", 42L, Handshake.newNonce(), new byte[32]);
        ByteBuf frame = Handshake.hello(ByteBufAllocator.DEFAULT, hello);
        try {
            assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
            assertThat(frame.readByte()).isEqualTo(Frames.HELLO);
            assertThat(Handshake.speaksOurProtocol(frame)).isTrue();

            var decoded = Handshake.readHello(frame);

            assertThat(decoded.fromGroup()).isEqualTo("G1");
            assertThat(decoded.toGroup()).isEqualTo("Gruppe-ü");
            assertThat(decoded.fingerprint()).isEqualTo(42L);
            assertThat(decoded.clientNonce()).isEqualTo(hello.clientNonce());
            assertThat(frame.isReadable()).isFalse();
        } finally {
            frame.release();
        }
    }

    @Test
    void shouldRejectATruncatedHelloInsteadOfReadingPastIt() {
        ByteBuf payload = ByteBufAllocator.DEFAULT
                .buffer()
                .writeInt(Handshake.MAGIC)
                .writeShort(1)
                .writeShort(500);
        try {
            assertThatThrownBy(() -> Handshake.readHello(payload)).isInstanceOf(CorruptedFrameException.class);
        } finally {
            payload.release();
        }
    }

    @Test
    void shouldBindTheProofToSecretNonceDirectionAndFingerprint() {
        byte[] proof = Handshake.proof(SECRET, NONCE, "G1", "G2", 7);

        assertThat(Handshake.proof(SECRET, NONCE, "G1", "G2", 7)).isEqualTo(proof);
        assertThat(Handshake.proof("x".getBytes(StandardCharsets.UTF_8), NONCE, "G1", "G2", 7))
                .isNotEqualTo(proof);
        assertThat(Handshake.proof(SECRET, Handshake.newNonce(), "G1", "G2", 7)).isNotEqualTo(proof);
        assertThat(Handshake.proof(SECRET, NONCE, "G2", "G1", 7)).isNotEqualTo(proof);
        assertThat(Handshake.proof(SECRET, NONCE, "G1", "G2", 8)).isNotEqualTo(proof);
        assertThat(Handshake.proof(null, NONCE, "G1", "G2", 7)).containsOnly(0);
    }

    @Test
    void shouldDeriveOneFrameKeyPerDirectionBoundToSecretAndBothNonces() {
        byte[] server = Handshake.newNonce();
        byte[] client = Handshake.newNonce();
        byte[] fromClient = Handshake.frameKey(SECRET, server, client, true);

        assertThat(fromClient).hasSize(32).isEqualTo(Handshake.frameKey(SECRET, server, client, true));
        assertThat(Handshake.frameKey(SECRET, server, client, false)).isNotEqualTo(fromClient);
        assertThat(Handshake.frameKey("x".getBytes(StandardCharsets.UTF_8), server, client, true))
                .isNotEqualTo(fromClient);
        assertThat(Handshake.frameKey(SECRET, Handshake.newNonce(), client, true))
                .isNotEqualTo(fromClient);
        assertThat(Handshake.frameKey(SECRET, server, Handshake.newNonce(), true))
                .isNotEqualTo(fromClient);
    }
}
