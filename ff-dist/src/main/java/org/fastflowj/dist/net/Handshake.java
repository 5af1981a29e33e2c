package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The handshake payloads and their proofs.
 *
 * <pre>
 * CHALLENGE  server nonce (16)
 * HELLO      magic "FFJ1" (int) | version (short) | from (utf) | to (utf) | fingerprint (long)
 *            | client nonce (16) | proof (32) = HMAC-SHA256(secret, serverNonce|from|to|fingerprint)
 * WELCOME    proof (32) = HMAC-SHA256(secret, clientNonce|to|from|fingerprint)
 * REFUSE     reason (utf)
 * utf = unsigned short byte count + UTF-8 bytes
 * </pre>
 *
 * Each side proves the secret over the nonce the other side chose, so a recorded handshake cannot be
 * replayed; without a secret the proofs are zeros and only names and fingerprint are checked.
 *
 * <p>A link that authenticates its frames ({@link FrameSealer}) uses one key per direction, derived
 * from both nonces: {@code HMAC-SHA256(secret, "ffj-frame-key" | direction | serverNonce | clientNonce)},
 * direction 'C' for frames the connecting side sends and 'S' for the other way.
 *
 * <p>Threading: stateless; the random source and each {@link Mac} use are thread-safe.
 */
final class Handshake {
    static final int MAGIC = 0x46464A31;
    static final short VERSION = 1;
    static final int NONCE_BYTES = 16;
    static final int PROOF_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] FRAME_KEY_LABEL = "ffj-frame-key".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {}

    record Hello(String fromGroup, String toGroup, long fingerprint, byte[] clientNonce, byte[] proof) {}

    static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    static ByteBuf challenge(ByteBufAllocator alloc, byte[] serverNonce) {
        return Frames.encode(alloc, Frames.CHALLENGE, Unpooled.wrappedBuffer(serverNonce));
    }

    static ByteBuf hello(ByteBufAllocator alloc, Hello hello) {
        ByteBuf payload = alloc.buffer();
        payload.writeInt(MAGIC).writeShort(VERSION);
        writeUtf(payload, hello.fromGroup());
        writeUtf(payload, hello.toGroup());
        payload.writeLong(hello.fingerprint()).writeBytes(hello.clientNonce()).writeBytes(hello.proof());
        return Frames.encode(alloc, Frames.HELLO, payload);
    }

    static ByteBuf welcome(ByteBufAllocator alloc, byte[] proof) {
        return Frames.encode(alloc, Frames.WELCOME, Unpooled.wrappedBuffer(proof));
    }

    static ByteBuf refuse(ByteBufAllocator alloc, String reason) {
        ByteBuf payload = alloc.buffer();
        writeUtf(payload, reason.length() > 1000 ? reason.substring(0, 1000) : reason);
        return Frames.encode(alloc, Frames.REFUSE, payload);
    }

    /** True if the payload starts with the magic and our protocol version. */
    static boolean speaksOurProtocol(ByteBuf payload) {
        return payload.readableBytes() >= 6
                && payload.getInt(payload.readerIndex()) == MAGIC
                && payload.getShort(payload.readerIndex() + 4) == VERSION;
    }

    static Hello readHello(ByteBuf payload) {
        payload.skipBytes(6);
        String from = readUtf(payload);
        String to = readUtf(payload);
        long fingerprint = readBytes(payload, 8).getLong(0);
        return new Hello(from, to, fingerprint, readArray(payload, NONCE_BYTES), readArray(payload, PROOF_BYTES));
    }

    static byte[] readNonce(ByteBuf payload) {
        return readArray(payload, NONCE_BYTES);
    }

    static byte[] readProof(ByteBuf payload) {
        return readArray(payload, PROOF_BYTES);
    }

    static String readUtf(ByteBuf payload) {
        if (payload.readableBytes() < 2) {
            throw malformed();
        }
        int length = payload.readUnsignedShort();
        return readBytes(payload, length).toString(StandardCharsets.UTF_8);
    }

    /** HMAC-SHA256(secret, nonce | first | second | fingerprint), or zeros without a secret. */
    static byte[] proof(byte[] secretOrNull, byte[] nonce, String first, String second, long fingerprint) {
        if (secretOrNull == null) {
            return new byte[PROOF_BYTES];
        }
        ByteBuf input = Unpooled.buffer();
        input.writeBytes(nonce);
        writeUtf(input, first);
        writeUtf(input, second);
        input.writeLong(fingerprint);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secretOrNull, "HmacSHA256"));
            mac.update(input.array(), input.arrayOffset(), input.readableBytes());
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** The key of the frames that flow from the connecting side ({@code fromClient}) or to it. */
    static byte[] frameKey(byte[] secret, byte[] serverNonce, byte[] clientNonce, boolean fromClient) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(FRAME_KEY_LABEL);
            mac.update((byte) (fromClient ? 'C' : 'S'));
            mac.update(serverNonce);
            mac.update(clientNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** Constant-time comparison, so timing does not reveal how much of a proof was right. */
    static boolean proofMatches(byte[] expected, byte[] received) {
        return MessageDigest.isEqual(expected, received);
    }

    private static void writeUtf(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("string too long for the handshake: " + bytes.length + " bytes");
        }
        out.writeShort(bytes.length).writeBytes(bytes);
    }

    private static ByteBuf readBytes(ByteBuf payload, int length) {
        if (payload.readableBytes() < length) {
            throw malformed();
        }
        ByteBuf slice = payload.slice(payload.readerIndex(), length);
        payload.skipBytes(length);
        return slice;
    }

    private static byte[] readArray(ByteBuf payload, int length) {
        byte[] bytes = new byte[length];
        readBytes(payload, length).getBytes(0, bytes);
        return bytes;
    }

    private static CorruptedFrameException malformed() {
        return new CorruptedFrameException("malformed handshake frame");
    }
}
