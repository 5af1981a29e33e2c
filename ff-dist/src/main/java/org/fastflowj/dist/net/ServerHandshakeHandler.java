package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of the handshake: sends a CHALLENGE, checks the HELLO (protocol, proof, names,
 * fingerprint, no second connection from the same group), answers WELCOME or REFUSE.
 *
 * <p>The proof is checked before anything else is compared, so a peer without the secret learns
 * nothing about this group's configuration.
 *
 * <p>Threading: one instance per channel, on its event loop only; {@code connectedGroups} is shared by
 * all inbound channels of the transport.
 */
final class ServerHandshakeHandler extends AbstractHandshakeHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ServerHandshakeHandler.class);

    private final Set<String> allowedInbound;
    private final ConcurrentMap<String, Channel> connectedGroups;
    private byte[] serverNonce;

    ServerHandshakeHandler(
            WireSettings settings,
            PeerHandler handler,
            Set<String> allowedInbound,
            ConcurrentMap<String, Channel> connectedGroups) {
        super(settings, handler);
        this.allowedInbound = allowedInbound;
        this.connectedGroups = connectedGroups;
    }

    @Override
    protected void onTransportReady(ChannelHandlerContext ctx) {
        serverNonce = Handshake.newNonce();
        ctx.writeAndFlush(Handshake.challenge(ctx.alloc(), serverNonce), ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (isFinished()) {
                return; // refused already; the close is on its way
            }
            byte type = frame.readByte();
            if (type == Frames.HELLO && serverNonce != null) {
                checkHello(ctx, frame);
            } else if (Frames.isApplicationType(type)) {
                refuse(ctx, "application frame " + Frames.typeName(type) + " before the handshake completed");
            } else {
                refuse(ctx, "unexpected " + Frames.typeName(type) + " frame during the handshake");
            }
        } finally {
            frame.release();
        }
    }

    private void checkHello(ChannelHandlerContext ctx, ByteBuf payload) {
        if (!Handshake.speaksOurProtocol(payload)) {
            refuse(ctx, "not a FastFlow-J peer (or protocol version other than " + Handshake.VERSION + ")");
            return;
        }
        Handshake.Hello hello = Handshake.readHello(payload);
        String local = settings.localGroup();
        byte[] secret = settings.secretOrNull();
        if (secret != null) {
            byte[] expected =
                    Handshake.proof(secret, serverNonce, hello.fromGroup(), hello.toGroup(), hello.fingerprint());
            if (!Handshake.proofMatches(expected, hello.proof())) {
                refuse(ctx, "authentication failed: wrong or missing secret");
                return;
            }
        }
        String peer = "group " + hello.fromGroup() + " at "
                + Addresses.describe(ctx.channel().remoteAddress());
        if (!hello.toGroup().equals(local)) {
            refuse(ctx, peer + " wanted group " + hello.toGroup() + " but this is group " + local);
        } else if (!allowedInbound.contains(hello.fromGroup())) {
            refuse(ctx, peer + " is not expected to connect to group " + local + " (expected: " + allowedInbound + ")");
        } else if (hello.fingerprint() != settings.fingerprint()) {
            refuse(
                    ctx,
                    peer + " runs a different program or config: graph fingerprint 0x"
                            + Long.toHexString(hello.fingerprint()) + " != 0x"
                            + Long.toHexString(settings.fingerprint()));
        } else if (connectedGroups.putIfAbsent(hello.fromGroup(), ctx.channel()) != null) {
            refuse(ctx, peer + " is already connected to group " + local + " (a second connection is not allowed)");
        } else {
            welcome(ctx, hello);
        }
    }

    private void welcome(ChannelHandlerContext ctx, Handshake.Hello hello) {
        Channel channel = ctx.channel();
        channel.closeFuture().addListener(f -> connectedGroups.remove(hello.fromGroup(), channel));
        byte[] proof = Handshake.proof(
                settings.secretOrNull(), hello.clientNonce(), hello.toGroup(), hello.fromGroup(), hello.fingerprint());
        ctx.writeAndFlush(Handshake.welcome(ctx.alloc(), proof), ctx.voidPromise());
        openLink(ctx, hello.fromGroup(), true);
    }

    @Override
    protected void onTimeout(ChannelHandlerContext ctx, String reason) {
        refuse(ctx, reason);
    }

    /** Final: tells the peer why, then closes. */
    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (!isFinished()) {
            // Written before fail() closes the channel; the close flushes it out first.
            ctx.writeAndFlush(Handshake.refuse(ctx.alloc(), reason)).addListener(ChannelFutureListener.CLOSE);
            fail(ctx, reason, null);
        }
    }

    @Override
    protected void onFailure(ChannelHandlerContext ctx, String reason, Throwable causeOrNull) {
        var remote = ctx.channel().remoteAddress();
        LOG.warn(
                "refused connection from {} to group {}: {}",
                Addresses.describe(remote),
                settings.localGroup(),
                reason);
        handler.onRefused(remote, reason);
        ctx.close();
    }
}
