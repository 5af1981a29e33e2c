package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * The wire format between two groups, in one place: the frame layout the transport cuts and seals, the
 * frame types of the transport and of the run layer above it, and the messages inside a batch.
 *
 * <pre>
 *   frame:   length (int32, big-endian, counting the bytes after it) | type (byte) | payload
 *
 *   transport (types below 0x10; never passed up):
 *     CHALLENGE  server to client on accept: a 16-byte nonce
 *     HELLO      client to server: who it is, what it runs, the proof that it knows the secret
 *     WELCOME    server to client: the server's proof; the link is open
 *     REFUSE     either way: a UTF reason, then the sender closes
 *     HEARTBEAT  either way: empty; sent when nothing else was written for the heartbeat interval
 *     MAC        either way, on sealed links: the 32-byte HMAC of the frame just before it
 *
 *   run layer (0x10 and up), between sender group G and receiver group H (one connection, opened by G):
 *     BATCH   G to H: message*        message: kind (byte), edge id (int), then for DATA a count (int)
 *                                     and that many items, in order, for BARRIER a checkpoint id (long);
 *                                     kinds DATA, EOS, DONE, TASK_DONE, BARRIER
 *     ACK     H to G: batches (int), bytes (long)   that many batches, of that many payload bytes, were
 *                                     taken: G has that many batch credits and bytes of its window back
 *     TAKEN   H to G: edge id (int), n (int), signals (byte)   the on-demand edge's consumer took n more
 *                                     of its items: G may send that many more on that edge; signals: bit 0,
 *                                     the consumer waited for an item since the last report, bit 1, an
 *                                     item waited for room in its channel (OnDemandWindow)
 *     GONE    H to G: edge id (int)   the edge's consumer ended: its producer stops (early termination)
 *     ABORT   either way: group (UTF), why (UTF)   that group failed: fail this run too
 *     ENDED   either way: group (UTF) that group's part of the run ended (each group passes it on once)
 * </pre>
 *
 * Edge ids are positions in the whole program's graph, the same in every process (the handshake's graph
 * fingerprint checks that).
 *
 * <p>Threading: stateless.
 */
public final class Frames {
    /** The length field in front of every frame. */
    public static final int LENGTH_BYTES = Integer.BYTES;
    /** The type byte after the length field. */
    public static final int TYPE_BYTES = 1;
    /** The length field plus the type byte; a payload with this much room before it gets its header in place. */
    public static final int HEADER_BYTES = LENGTH_BYTES + TYPE_BYTES;

    public static final byte CHALLENGE = 0x01;
    public static final byte HELLO = 0x02;
    public static final byte WELCOME = 0x03;
    public static final byte REFUSE = 0x04;
    public static final byte HEARTBEAT = 0x05;
    /** Sealed links only: the tag of the frame before it ({@link FrameSealer}, {@link FrameOpener}). */
    public static final byte MAC = 0x06;
    /** Types from here on belong to the run layer: the transport passes them up unchanged. */
    public static final byte FIRST_APPLICATION_TYPE = 0x10;

    public static final byte BATCH = 0x10;
    public static final byte ACK = 0x11;
    public static final byte GONE = 0x12;
    public static final byte ABORT = 0x13;
    public static final byte TAKEN = 0x14;
    public static final byte ENDED = 0x1F;

    /**
     * A batch message: a run of items for the edge's consumer. The sender writes the kind and edge once for
     * consecutive items of one edge (per item they took as many bytes as an 8-byte payload, and a call each).
     */
    public static final byte DATA = 0;
    /** A batch message: the edge's producer sent EOS on it (forward edges). */
    public static final byte EOS = 1;
    /** A batch message: the edge's producer ended (feedback edges, which carry no EOS). */
    public static final byte DONE = 2;
    /**
     * A batch message: the edge's producer, a worker of an ordered farm whose collector runs in the
     * receiving group, finished a task; the edge's items before it were that task's outputs.
     */
    public static final byte TASK_DONE = 3;
    /**
     * A batch message: a checkpoint's barrier on the edge (forward edges), after the edge's items before
     * it; its checkpoint id (long) follows the edge id.
     */
    public static final byte BARRIER = 4;
    /** The kind and edge id every batch message starts with, and a DATA message's item count. */
    public static final int RUN_HEADER_BYTES = 1 + Integer.BYTES + Integer.BYTES;

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
            payload.setInt(start, TYPE_BYTES + payload.readableBytes());
            payload.setByte(start + LENGTH_BYTES, type);
            return payload.readerIndex(start);
        }
        ByteBuf header = alloc.buffer(HEADER_BYTES, HEADER_BYTES);
        header.writeInt(TYPE_BYTES + payload.readableBytes()).writeByte(type);
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
        return header.writeInt(TYPE_BYTES).writeByte(type);
    }

    static String typeName(byte type) {
        return switch (type) {
            case CHALLENGE -> "CHALLENGE";
            case HELLO -> "HELLO";
            case WELCOME -> "WELCOME";
            case REFUSE -> "REFUSE";
            case HEARTBEAT -> "HEARTBEAT";
            case MAC -> "MAC";
            case BATCH -> "BATCH";
            case ACK -> "ACK";
            case GONE -> "GONE";
            case ABORT -> "ABORT";
            case TAKEN -> "TAKEN";
            case ENDED -> "ENDED";
            default -> String.format("0x%02x", type);
        };
    }
}
