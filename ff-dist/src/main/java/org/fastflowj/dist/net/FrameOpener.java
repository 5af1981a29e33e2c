package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.security.MessageDigest;

/**
 * Checks the MAC frame that follows each frame on a link sealed by the peer's {@link FrameSealer}:
 * a frame is held until its tag arrives and passed on only if the tag matches; a wrong tag, a frame
 * without a tag or a tag without a frame fails the link with a {@link PeerLinkFailedException} naming
 * the peer. Sits right after the {@link FrameDecoder}, so nothing unauthenticated reaches the heartbeat
 * or link handlers.
 *
 * <p>Threading: one instance per channel, on its event loop only.
 */
final class FrameOpener extends ChannelInboundHandlerAdapter {
    static final String NAME = "open";

    private final FrameMac mac;
    private final String peer;
    private final byte[] received = new byte[FrameMac.TAG_BYTES];
    private ByteBuf held;

    FrameOpener(byte[] key, String peer) {
        this.mac = new FrameMac(key);
        this.peer = peer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (frame.getByte(frame.readerIndex()) != Frames.MAC) {
            if (held != null) {
                frame.release();
                releaseHeld();
                throw broken("frame " + mac.sequence() + " came without its MAC");
            }
            held = frame;
            return;
        }
        try {
            if (held == null) {
                throw broken("a MAC frame came without a frame before it");
            }
            if (frame.readableBytes() != Frames.TYPE_BYTES + FrameMac.TAG_BYTES) {
                throw broken("a MAC frame of " + frame.readableBytes() + " bytes (expected "
                        + (Frames.TYPE_BYTES + FrameMac.TAG_BYTES) + ")");
            }
            frame.getBytes(frame.readerIndex() + Frames.TYPE_BYTES, received);
            long sequence = mac.sequence();
            byte[] expected = mac.next(held, held.readerIndex(), held.readableBytes());
            // Constant-time, so timing does not tell an attacker how much of a forged tag was right.
            if (!MessageDigest.isEqual(expected, received)) {
                throw broken("frame " + sequence + " failed authentication (altered, injected, replayed or reordered"
                        + " on the way)");
            }
        } catch (RuntimeException e) {
            releaseHeld();
            throw e;
        } finally {
            frame.release();
        }
        ByteBuf authentic = held;
        held = null;
        ctx.fireChannelRead(authentic);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseHeld();
        ctx.fireChannelInactive();
    }

    private void releaseHeld() {
        if (held != null) {
            held.release();
            held = null;
        }
    }

    private PeerLinkFailedException broken(String what) {
        return new PeerLinkFailedException(peer + " broke the frame authentication: " + what);
    }
}
