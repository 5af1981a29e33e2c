package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * The frame layout shared by both ends: {@code int32 length} (big-endian, counting the bytes after
 * it), {@code byte type}, payload. Types below {@link #FIRST_APPLICATION_TYPE} belong to the transport.
 *
 * <p>Threading: stateless.
 */
public final class Frames {
    /** Server to client at once on accept: a 16-byte nonce. */
    public static final byte CHALLENGE = 0x01;
    /** Client to server: who it is, what it runs, and the proof that it knows the secret. */
    public static final byte HELLO = 0x02;
    /** Server to client: the server's proof; the link is open. */
    public static final byte WELCOME = 0x03;
    /** Either way: a UTF reason, then the sender closes. */
    public static final byte REFUSE = 0x04;
    /** Either way: empty; sent when nothing else was written for the heartbeat interval. */
    public static final byte HEARTBEAT = 0x05;
    /**
     * Either way, on links that authenticate their frames: the 32-byte HMAC of the frame just before it
     * ({@link FrameSealer}).
     */
    public static final byte MAC = 0x06;
    /** Types from here on are passed to the layer above unchanged. */
    public static final byte FIRST_APPLICATION_TYPE = 0x10;

    /** The length field plus the type byte; a payload with this much room before it gets its header in place. */
    public static final int HEADER_BYTES = 5;

    private Frames() {}

    public static boolean isApplicationType(byte type) {
        return type >= FIRST_APPLICATION_TYPE;
    }

    /**
     * One frame as one buffer, without copying the payload. A payload that left {@link #HEADER_BYTES}
     * before its reader index gets the header written there (one buffer, one iovec, nothing allocated:
     * what a sender building batches does); any other is joined to a 5-byte header in a composite.
     * Takes ownership of {@code payload}.
     */
    static ByteBuf encode(ByteBufAllocator alloc, byte type, ByteBuf payload) {
        int start = payload.readerIndex() - HEADER_BYTES;
        if (start >= 0 && payload.isReadable()) {
            payload.setInt(start, 1 + payload.readableBytes());
            payload.setByte(start + Integer.BYTES, type);
            return payload.readerIndex(start);
        }
        ByteBuf header = alloc.buffer(HEADER_BYTES, HEADER_BYTES);
        header.writeInt(1 + payload.readableBytes()).writeByte(type);
        if (!payload.isReadable()) {
            payload.release();
            return header;
        }
        CompositeByteBuf frame = alloc.compositeBuffer(2);
        frame.addComponents(true, header, payload);
        return frame;
    }

    /** A frame with an empty payload (HEARTBEAT). */
    static ByteBuf encodeEmpty(ByteBufAllocator alloc, byte type) {
        ByteBuf header = alloc.buffer(HEADER_BYTES, HEADER_BYTES);
        return header.writeInt(1).writeByte(type);
    }

    static String typeName(byte type) {
        return switch (type) {
            case CHALLENGE -> "CHALLENGE";
            case HELLO -> "HELLO";
            case WELCOME -> "WELCOME";
            case REFUSE -> "REFUSE";
            case HEARTBEAT -> "HEARTBEAT";
            case MAC -> "MAC";
            default -> String.format("0x%02x", type);
        };
    }
}
