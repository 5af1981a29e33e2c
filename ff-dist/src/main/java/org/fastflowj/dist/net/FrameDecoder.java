package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Cuts the byte stream into frames and hands each one on as a buffer that starts with the type byte.
 * The length is checked before anything is allocated: more than {@code maxFrameBytes}, negative or
 * zero fails the connection at once ({@code failFast}), so a stranger's bytes cannot make us allocate
 * gigabytes. A connection that ends inside a frame is reported as corrupt rather than as a clean close.
 *
 * <p>Before the handshake a stranger may be talking, so a decoder made by {@link #beforeHandshake}
 * accepts frames of {@link #HANDSHAKE_MAX_FRAME_BYTES} at most until {@link #openLink} raises the limit
 * to {@code maxFrameBytes}: an unauthenticated connection cannot make us buffer megabytes.
 *
 * <p>Threading: one instance per channel, used on its event loop only (not {@code @Sharable}).
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    /**
     * Frames up to this size are handed on in heap memory, bigger ones in direct memory. Deserializing
     * from a direct buffer costs a checked copy per item, so small items read about twice as fast from a
     * heap frame (NetThroughput's 8 B cells); for a big frame a heap copy would cost more than it saves.
     */
    static final int HEAP_FRAME_MAX_BYTES = 64 * 1024 + 64;

    static final String NAME = "frames";

    /** The largest handshake frame: a HELLO with two group names of a thousand characters fits. */
    static final int HANDSHAKE_MAX_FRAME_BYTES = 4 * 1024;

    private final int maxFrameBytes;
    // A plain field: written by openLink() and read by decode(), both on the channel's event loop.
    private int limitBytes;
    /** A frame was malformed: the stream has no frame boundaries any more. */
    private boolean broken;

    /** A decoder for an open link: frames up to {@code maxFrameBytes}. */
    FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, maxFrameBytes);
    }

    private FrameDecoder(int maxFrameBytes, int limitBytes) {
        // The limit Netty checks includes the length field itself; strip that field.
        super(maxFrameBytes + Frames.LENGTH_BYTES, 0, Frames.LENGTH_BYTES, 0, Frames.LENGTH_BYTES, true);
        this.maxFrameBytes = maxFrameBytes;
        this.limitBytes = limitBytes;
    }

    /** A decoder for a new connection: handshake-sized frames until {@link #openLink}. */
    static FrameDecoder beforeHandshake(int maxFrameBytes) {
        return new FrameDecoder(maxFrameBytes, Math.min(maxFrameBytes, HANDSHAKE_MAX_FRAME_BYTES));
    }

    /** The handshake succeeded: frames up to {@code maxFrameBytes} from now on (the next frame included). */
    void openLink() {
        limitBytes = maxFrameBytes;
    }

    /**
     * Whether a frame length read from the first four bytes is a TLS record's header instead: its content
     * type (change_cipher_spec, alert, handshake or application data: 20-23) then major version 3. A
     * TLS peer's first bytes (a ClientHello, or the alert a TLS server answers a plain HELLO with) read as
     * a length of hundreds of megabytes; no frame of ours before the handshake comes near that.
     */
    static boolean isTlsRecordHeader(long length) {
        int contentType = (int) (length >>> 24);
        int majorVersion = (int) (length >>> 16) & 0xFF;
        return contentType >= 20 && contentType <= 23 && majorVersion == 3;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (broken) {
            // Whatever follows a malformed frame is garbage: none of it may reach the handlers, also not
            // when the channel closes (Netty then decodes the bytes left over) or after Netty's own
            // recovery from a too-long frame (it skips the announced length and goes on).
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (limitBytes < maxFrameBytes && in.readableBytes() >= Frames.LENGTH_BYTES) {
            long length = in.getUnsignedInt(in.readerIndex());
            if (length > limitBytes) {
                broken = true;
                in.skipBytes(in.readableBytes());
                if (isTlsRecordHeader(length)) {
                    throw new TooLongFrameException("the peer sent a TLS record before the handshake: it uses TLS"
                            + " and this group does not (set tls on both, or on neither)");
                }
                throw new TooLongFrameException("frame of " + length + " bytes before the handshake completed (at most "
                        + limitBytes + " bytes are accepted until then)");
            }
        }
        Object frame;
        try {
            frame = super.decode(ctx, in);
        } catch (Exception e) {
            broken = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (frame instanceof ByteBuf buf && !buf.isReadable()) {
            buf.release();
            broken = true;
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("frame of length 0 (every frame has at least a type byte)");
        }
        return frame;
    }

    /**
     * A copy of the frame, not Netty's retained slice: a frame is read later, on another thread, and while
     * a slice of the accumulated bytes is alive Netty cannot append the next read in place; it copies the
     * partial frame into a new buffer on every read that ends inside one (profiled, 64 KiB frames: a
     * fifth of the receiving event loop's time, plus zeroing new memory).
     */
    @Override
    protected ByteBuf extractFrame(ChannelHandlerContext ctx, ByteBuf buffer, int index, int length) {
        ByteBuf frame = length <= HEAP_FRAME_MAX_BYTES
                ? ctx.alloc().heapBuffer(length, length)
                : ctx.alloc().directBuffer(length, length);
        return frame.writeBytes(buffer, index, length);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            // Fired here, not thrown: a throw would only surface after channelInactive has reported a
            // clean close.
            int leftover = in.readableBytes();
            in.skipBytes(leftover);
            ctx.fireExceptionCaught(new CorruptedFrameException(
                    "connection closed in the middle of a frame (" + leftover + " bytes of it received)"));
        }
    }
}
