package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.runtime.control.FatalErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of an open link: drops heartbeats, hands application frames to the {@link
 * PeerHandler}, writes a heartbeat when the writer has been idle, and fails the link when the reader
 * has been idle beyond the timeout (unless this side paused reading: then the silence is its own). An
 * out-of-memory or another JVM error halts the JVM ({@link FatalErrors}). It reports {@code onClosed}
 * exactly once, from {@code channelInactive}, with the first failure seen (or null for a clean close).
 *
 * <p>Threading: one instance per channel, on its event loop only.
 */
final class LinkHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(LinkHandler.class);

    private final PeerLink link;
    private final PeerHandler handler;
    private final long heartbeatTimeoutMs;
    private Throwable failure;
    private boolean closedReported;

    LinkHandler(PeerLink link, PeerHandler handler, long heartbeatTimeoutMs) {
        this.link = link;
        this.handler = handler;
        this.heartbeatTimeoutMs = heartbeatTimeoutMs;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (FatalErrors.halting()) {
            frame.release(); // the stream may have been cut anywhere by the fatal error: its frames mean nothing
            return;
        }
        byte type = frame.readByte();
        if (Frames.isApplicationType(type)) {
            handler.onFrame(link, type, frame); // ownership passes to the handler
            return;
        }
        try {
            if (type == Frames.HEARTBEAT) {
                return;
            }
            if (type == Frames.REFUSE) {
                String reason = Handshake.readUtf(frame);
                fail(ctx, new PeerRefusedException(link + " closed the link: " + reason, reason));
                return;
            }
            fail(
                    ctx,
                    new PeerLinkFailedException(link + " broke the protocol: unexpected " + Frames.typeName(type)
                            + " frame after the handshake"));
        } finally {
            frame.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.WRITER_IDLE) {
                ctx.writeAndFlush(Frames.encodeEmpty(ctx.alloc(), Frames.HEARTBEAT), ctx.voidPromise());
            } else if (idle.state() == IdleState.READER_IDLE
                    && !link.readingPausedWithin(TimeUnit.MILLISECONDS.toNanos(heartbeatTimeoutMs))) {
                fail(
                        ctx,
                        new PeerLinkFailedException(
                                "no data or heartbeat from " + link + " for " + heartbeatTimeoutMs + " ms"));
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (FatalErrors.halting()) {
            return; // a consequence of the fatal error, which is the one reported
        }
        if (FatalErrors.isFatal(cause)) {
            // Not on this thread, and the link stays open: the last words (an ABORT to every peer) are
            // written by this event loop, maybe on this very link.
            FatalErrors.haltSoon("event loop " + Thread.currentThread().getName() + " (link with " + link + ")", cause);
            return;
        }
        fail(ctx, cause instanceof PeerException ? cause : new PeerLinkFailedException(link + ": " + cause, cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        reportClosed();
        ctx.fireChannelInactive();
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null && !closedReported) {
            failure = cause;
            LOG.info("closing the link with {}: {}", link, cause.getMessage());
        }
        ctx.close();
    }

    private void reportClosed() {
        if (closedReported) {
            return;
        }
        closedReported = true;
        handler.onClosed(link, failure);
    }
}
