package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Writes after every frame a MAC frame ({@link Frames#MAC}) that authenticates it: the frame's
 * sequence number in this direction, its length, type and payload ({@link FrameMac}). Installed on
 * links that share a secret but have no TLS, so an on-path attacker who cannot read the secret
 * cannot inject, alter, drop, replay or reorder frames after the handshake; {@link FrameOpener}
 * checks on the other side.
 *
 * <pre>
 *   ... | len | type | payload | 33 | MAC | tag(32) | len | type | ...
 * </pre>
 *
 * <p>Threading: one instance per channel; Netty runs every write on the channel's event loop, one
 * after another, so the sequence needs no synchronization, and the two writes of a frame and its tag
 * are never separated by another frame.
 */
final class FrameSealer extends ChannelOutboundHandlerAdapter {
    static final String NAME = "seal";
    private static final int TAG_FRAME_BYTES = Frames.HEADER_BYTES + FrameMac.TAG_BYTES;

    private final FrameMac mac;

    FrameSealer(byte[] key) {
        this.mac = new FrameMac(key);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        // PeerLink.close() writes an empty buffer to flush before closing: not a frame, nothing to seal.
        if (!(msg instanceof ByteBuf frame) || !frame.isReadable()) {
            ctx.write(msg, promise);
            return;
        }
        int start = frame.readerIndex() + Frames.LENGTH_BYTES; // the type and payload
        byte[] tag = mac.next(frame, start, frame.readableBytes() - Frames.LENGTH_BYTES);
        ByteBuf tagFrame = ctx.alloc().buffer(TAG_FRAME_BYTES, TAG_FRAME_BYTES);
        tagFrame.writeInt(Frames.TYPE_BYTES + FrameMac.TAG_BYTES)
                .writeByte(Frames.MAC)
                .writeBytes(tag);
        ctx.write(frame, promise);
        ctx.write(tagFrame, ctx.voidPromise());
    }
}
