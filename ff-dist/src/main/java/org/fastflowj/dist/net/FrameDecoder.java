package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
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
 * <p>Small frames (up to {@link #HEAP_FRAME_MAX_BYTES}) are handed on as a heap copy of their bytes,
 * big ones as a retained slice of the bytes as they were read, without a copy ({@link #extractFrame}):
 * the reads that carry a small frame are merged into one buffer, those that carry a big one are
 * composed ({@link #cumulate}). A big frame may so span several buffers: whatever reads it takes its
 * bytes through the {@link ByteBuf} API, never from one array or address.
 *
 * <p>Threading: one instance per channel, used on its event loop only (not {@code @Sharable}). A big
 * frame is read on another thread while the event loop goes on with the bytes after it, in buffers they
 * share: the event loop never changes bytes a slice covers. Netty's cumulators write a read only after
 * the bytes already there, and change a composite's layout or move bytes to the front only while
 * nothing else holds the cumulation (its reference count is 1); otherwise they start a new one. The
 * slice reaches the receiver's thread through the link's queue, which orders its bytes before the read.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    /**
     * Frames up to this size are handed on as a copy in heap memory, bigger ones as a slice of the bytes
     * read. A heap copy of a tiny frame costs little, lets the receiver read its items' headers off an
     * array, and lets the read go at once; from a few KiB on the copy costs more than that saves
     * (NetThroughput's 4 KiB and 64 KiB cells at small batches are where it shows).
     */
    static final int HEAP_FRAME_MAX_BYTES = 2 * 1024;

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
        setCumulator(this::cumulate);
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
     * A small frame is a heap copy, a big one a retained slice of the bytes read. A slice of the
     * cumulation keeps Netty from appending the next read to it in place: the merge cumulator would then
     * copy the partial next frame on every read that ends inside one, a copy per read for frames larger
     * than a read. {@link #cumulate} composes the reads of a big frame instead,
     * so no read is copied while a slice lives.
     *
     * <p>Memory: a slice holds the buffers its bytes were read into until it is released. Each of them
     * is at least half full (a sparser read is copied, or its frames are: {@link #composable}), and a
     * receiver releases frames in the order they came, so the frames alive at any time hold at most
     * twice their length, plus the buffers at the two ends of their run, which they share with the
     * frames before and after them (a read each, at most). The credit window ({@code
     * maxBufferedBytesPerLink}) counts frame lengths, so what a link holds stays within about twice it.
     */
    @Override
    protected ByteBuf extractFrame(ChannelHandlerContext ctx, ByteBuf buffer, int index, int length) {
        // A read that fills less than half of its buffer is not sliced (a few KiB would hold it whole):
        // its frames are copied, and what it holds of a frame it does not finish is copied before it is
        // composed (composable).
        if (length > HEAP_FRAME_MAX_BYTES && (buffer instanceof CompositeByteBuf || halfFull(buffer))) {
            return buffer.retainedSlice(index, length);
        }
        return ctx.alloc().heapBuffer(length, length).writeBytes(buffer, index, length);
    }

    /** Whether a read (or merged reads) fills at least half of its buffer, so a slice of it may hold it. */
    private static boolean halfFull(ByteBuf buffer) {
        return buffer.capacity() <= 2 * buffer.writerIndex();
    }

    /**
     * Adds a read to the bytes not yet cut into frames: composed, without a copy, when the frame they
     * start is big (it will be handed on as a slice), else merged into one contiguous buffer (a small
     * frame is copied out of it, and the next read goes in place). The cumulation always starts at a
     * frame's length field: {@link #decode} leaves it there, or skips everything once the stream broke.
     */
    private ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (cumulation != in && cumulation.isReadable() && pendingFrameLength(cumulation, in) > HEAP_FRAME_MAX_BYTES) {
            return COMPOSITE_CUMULATOR.cumulate(alloc, composable(alloc, cumulation), composable(alloc, in));
        }
        if (cumulation instanceof CompositeByteBuf && cumulation != in && cumulation.isReadable()) {
            // What is left of a composed cumulation is the start of a small frame: merge it, as a whole.
            try {
                return alloc.buffer(cumulation.readableBytes() + in.readableBytes())
                        .writeBytes(cumulation)
                        .writeBytes(in);
            } finally {
                cumulation.release();
                in.release();
            }
        }
        return MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
    }

    /**
     * The length field at the cumulation's reader index, read across into {@code in} if the cumulation
     * holds less than all of it; 0 while even both hold less.
     */
    private static long pendingFrameLength(ByteBuf cumulation, ByteBuf in) {
        int held = cumulation.readableBytes();
        if (held >= Frames.LENGTH_BYTES) {
            return cumulation.getUnsignedInt(cumulation.readerIndex());
        }
        if (held + in.readableBytes() < Frames.LENGTH_BYTES) {
            return 0;
        }
        long length = 0;
        for (int i = 0; i < Frames.LENGTH_BYTES; i++) {
            byte b = i < held
                    ? cumulation.getByte(cumulation.readerIndex() + i)
                    : in.getByte(in.readerIndex() + i - held);
            length = (length << 8) | (b & 0xFF);
        }
        return length;
    }

    /**
     * The bytes to compose: a read, or what is left of the cumulation; as they are when they fill at
     * least half of their buffer (or are composed already), else a copy of what is left to read: a
     * slice holds whole buffers, and a few bytes must not hold a big one.
     */
    private static ByteBuf composable(ByteBufAllocator alloc, ByteBuf in) {
        int readable = in.readableBytes();
        if (in instanceof CompositeByteBuf || halfFull(in)) {
            return in;
        }
        try {
            return alloc.directBuffer(readable, readable).writeBytes(in);
        } finally {
            in.release();
        }
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
