package org.fastflowj.dist.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What both handshake sides share: the deadline for the whole handshake (TLS included), waiting for
 * TLS before the first handshake frame, checking the peer's certificate names its group, and on success
 * opening the link: full-size frames, a MAC on every frame where needed ({@link FrameSealer}), and the
 * {@link LinkHandler} in its own place.
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
    private boolean transportReady;

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
            transportReady = true;
            onTransportReady(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                transportReady = true;
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

    /** Called once when the handshake ends, either way. */
    protected void onFinished() {}

    /**
     * Why a handshake may have stalled before {@code awaited} arrived: a frozen peer looks the same as
     * one that speaks TLS to a plain group, or plain to a TLS group, so the message names both.
     */
    protected final String stalledBefore(String awaited) {
        if (tls && !transportReady) {
            return "the TLS handshake did not finish (the peer is frozen or overloaded, or it does not use TLS)";
        }
        return "no " + awaited + " received (the peer is frozen or overloaded"
                + (tls ? ")" : ", or it uses TLS and this group does not)");
    }

    /**
     * Null if TLS is off or the peer's certificate names {@code group}'s TLS name, else what is wrong
     * (a certificate for another name: another group, or a stranger with a certificate from our CA).
     */
    protected final String certificateProblem(ChannelHandlerContext ctx, String group) {
        if (!tls) {
            return null;
        }
        String name = settings.tlsNames().get(group);
        if (name == null) {
            return "no TLS name is known for group " + group + ", so no certificate can prove it";
        }
        return CertificateNames.problem(ctx.channel(), group, name);
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

    /**
     * Opens the link: raises the frame limit, seals the frames if needed, swaps this handler for the
     * link handler and tells the layer above. Runs before the next frame is decoded, so every frame
     * after the handshake meets the open link's pipeline.
     */
    protected final PeerLink openLink(
            ChannelHandlerContext ctx, String peerGroup, boolean inbound, byte[] serverNonce, byte[] clientNonce) {
        finish();
        PeerLink link = new PeerLink(peerGroup, inbound, ctx.channel());
        ChannelPipeline pipeline = ctx.pipeline();
        pipeline.get(FrameDecoder.class).openLink();
        if (needsFrameMacs(ctx.channel())) {
            byte[] secret = settings.secretOrNull();
            // The connecting side (not inbound) sends with the 'C' key and reads with the 'S' key.
            byte[] sendKey = Handshake.frameKey(secret, serverNonce, clientNonce, !inbound);
            byte[] readKey = Handshake.frameKey(secret, serverNonce, clientNonce, inbound);
            pipeline.addAfter(FrameDecoder.NAME, FrameOpener.NAME, new FrameOpener(readKey, link.toString()));
            pipeline.addAfter(FrameOpener.NAME, FrameSealer.NAME, new FrameSealer(sendKey));
        }
        pipeline.replace(this, "link", new LinkHandler(link, handler, settings.heartbeatTimeoutMs()));
        handler.onOpen(link);
        return link;
    }

    /**
     * A shared secret without TLS authenticates the handshake only; an on-path attacker could inject
     * frames afterwards unless each frame carries a MAC. TLS protects the frames itself, and between two
     * loopback addresses there is no path to be on (unless the settings ask for the MAC anyway).
     */
    private boolean needsFrameMacs(Channel channel) {
        if (settings.secretOrNull() == null || tls) {
            return false;
        }
        return settings.sealFramesOnLoopback()
                || !(isLoopback(channel.localAddress()) && isLoopback(channel.remoteAddress()));
    }

    private static boolean isLoopback(SocketAddress address) {
        return address instanceof InetSocketAddress inet
                && inet.getAddress() != null
                && inet.getAddress().isLoopbackAddress();
    }

    private boolean finish() {
        if (finished) {
            return false;
        }
        finished = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        onFinished();
        return true;
    }
}
