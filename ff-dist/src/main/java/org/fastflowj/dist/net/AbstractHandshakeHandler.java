package org.fastflowj.dist.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What both handshake sides share: the deadline for the whole handshake (TLS included), waiting for
 * TLS before the first handshake frame, and replacing itself by the {@link LinkHandler} on success.
 *
 * <p>Threading: one instance per channel, on its event loop only.
 */
abstract class AbstractHandshakeHandler extends ChannelInboundHandlerAdapter {
    static final String NAME = "handshake";

    protected final WireSettings settings;
    protected final PeerHandler handler;
    private final boolean tls;
    private ScheduledFuture<?> deadline;
    private boolean finished;

    AbstractHandshakeHandler(WireSettings settings, PeerHandler handler) {
        this.settings = settings;
        this.handler = handler;
        this.tls = settings.tlsOrNull() != null;
    }

    /** TCP (and TLS, if on) is up: the first handshake frame may be written. */
    protected abstract void onTransportReady(ChannelHandlerContext ctx);

    /** The handshake failed for {@code reason}; report it once and close. */
    protected abstract void onFailure(ChannelHandlerContext ctx, String reason, Throwable causeOrNull);

    /** The deadline passed before the handshake finished. */
    protected void onTimeout(ChannelHandlerContext ctx, String reason) {
        fail(ctx, reason, null);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        long timeoutMs = settings.handshakeTimeoutMs();
        deadline = ctx.executor()
                .schedule(
                        () -> onTimeout(ctx, "handshake not completed within " + timeoutMs + " ms"),
                        timeoutMs,
                        TimeUnit.MILLISECONDS);
        if (!tls) {
            onTransportReady(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                onTransportReady(ctx);
            } else {
                String why = done.cause() instanceof java.nio.channels.ClosedChannelException
                        ? "connection closed during the TLS handshake (the peer does not use TLS?)"
                        : String.valueOf(done.cause());
                fail(ctx, "TLS handshake failed: " + why, done.cause());
            }
        } else if (!(evt instanceof IdleStateEvent)) {
            // Idle events mean nothing before the link is open: the deadline covers that phase.
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, String.valueOf(cause), cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(ctx, "connection closed before the handshake completed", null);
        ctx.fireChannelInactive();
    }

    protected final boolean isFinished() {
        return finished;
    }

    /** Reports a failure once; later events for the dying channel are ignored. */
    protected final void fail(ChannelHandlerContext ctx, String reason, Throwable causeOrNull) {
        if (finish()) {
            onFailure(ctx, reason, causeOrNull);
        }
    }

    /** Swaps this handler for the link handler and tells the layer above. */
    protected final PeerLink openLink(ChannelHandlerContext ctx, String peerGroup, boolean inbound) {
        finish();
        PeerLink link = new PeerLink(peerGroup, inbound, ctx.channel());
        ctx.pipeline().replace(this, "link", new LinkHandler(link, handler, settings.heartbeatTimeoutMs()));
        handler.onOpen(link);
        return link;
    }

    private boolean finish() {
        if (finished) {
            return false;
        }
        finished = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        return true;
    }
}
