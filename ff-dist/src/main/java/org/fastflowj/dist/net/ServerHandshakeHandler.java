package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;

/**
 * The accepting side of the handshake: sends a CHALLENGE, checks the HELLO (protocol, proof, names,
 * fingerprint, certificate, no second connection from the same group), answers WELCOME or REFUSE.
 *
 * <p>A refusal tells a peer only what it already knew unless the peer proved the shared secret: an
 * unauthenticated peer (and any peer when there is no secret) gets {@link #UNDISCLOSED_REASON}, and the
 * details (names, fingerprints, expected groups) go to this group's log, rate-limited. Otherwise a
 * stranger could learn from a refusal the fingerprint and group names a second HELLO needs.
 *
 * <p>Threading: one instance per channel, on its event loop only; {@code connectedGroups} and {@code
 * admission} are shared by all inbound channels of the transport.
 */
final class ServerHandshakeHandler extends AbstractHandshakeHandler {
    /** The REFUSE reason an unauthenticated peer gets. */
    static final String UNDISCLOSED_REASON =
            "refused; the accepting group logs why (a wrong or missing secret, another program or config,"
                    + " a group it does not expect, or a certificate for another name)";

    private final Set<String> allowedInbound;
    private final ConcurrentMap<String, Channel> connectedGroups;
    private final HandshakeAdmission admission;
    private byte[] serverNonce;

    ServerHandshakeHandler(
            WireSettings settings,
            PeerHandler handler,
            Set<String> allowedInbound,
            ConcurrentMap<String, Channel> connectedGroups,
            HandshakeAdmission admission) {
        super(settings, handler);
        this.allowedInbound = allowedInbound;
        this.connectedGroups = connectedGroups;
        this.admission = admission;
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
                refuse(ctx, "application frame " + Frames.typeName(type) + " before the handshake completed", false);
            } else {
                refuse(ctx, "unexpected " + Frames.typeName(type) + " frame during the handshake", false);
            }
        } finally {
            frame.release();
        }
    }

    private void checkHello(ChannelHandlerContext ctx, ByteBuf payload) {
        if (!Handshake.speaksOurProtocol(payload)) {
            refuse(ctx, "not a FastFlow-J peer (or protocol version other than " + Handshake.VERSION + ")", false);
            return;
        }
        Handshake.Hello hello = Handshake.readHello(payload);
        String claimed = "a peer claiming to be group " + hello.fromGroup();
        byte[] secret = settings.secretOrNull();
        boolean proven = false;
        if (secret != null) {
            byte[] expected =
                    Handshake.proof(secret, serverNonce, hello.fromGroup(), hello.toGroup(), hello.fingerprint());
            if (!Handshake.proofMatches(expected, hello.proof())) {
                refuse(ctx, "authentication failed: wrong or missing secret (" + claimed + ")", false);
                return;
            }
            proven = true;
        }
        String problem = helloProblem(ctx, hello);
        if (problem != null) {
            refuse(ctx, problem, proven);
        } else if (connectedGroups.putIfAbsent(hello.fromGroup(), ctx.channel()) != null) {
            refuse(
                    ctx,
                    "group " + hello.fromGroup() + " is already connected to group " + settings.localGroup()
                            + " (a second connection is not allowed)",
                    proven);
        } else {
            welcome(ctx, hello);
        }
    }

    /** What is wrong with an (authenticated, if there is a secret) HELLO, or null. */
    private String helloProblem(ChannelHandlerContext ctx, Handshake.Hello hello) {
        String local = settings.localGroup();
        String peer = "group " + hello.fromGroup();
        if (!hello.toGroup().equals(local)) {
            return peer + " wanted group " + hello.toGroup() + " but this is group " + local;
        }
        if (!allowedInbound.contains(hello.fromGroup())) {
            return peer + " is not expected to connect to group " + local + " (expected: " + allowedInbound + ")";
        }
        if (hello.fingerprint() != settings.fingerprint()) {
            return peer + " runs a different program or config: graph fingerprint 0x"
                    + Long.toHexString(hello.fingerprint()) + " != 0x" + Long.toHexString(settings.fingerprint());
        }
        String certificate = certificateProblem(ctx, hello.fromGroup());
        return certificate == null ? null : peer + " presented the wrong certificate: " + certificate;
    }

    private void welcome(ChannelHandlerContext ctx, Handshake.Hello hello) {
        Channel channel = ctx.channel();
        channel.closeFuture().addListener(f -> connectedGroups.remove(hello.fromGroup(), channel));
        byte[] proof = Handshake.proof(
                settings.secretOrNull(), hello.clientNonce(), hello.toGroup(), hello.fromGroup(), hello.fingerprint());
        ctx.writeAndFlush(Handshake.welcome(ctx.alloc(), proof), ctx.voidPromise());
        openLink(ctx, hello.fromGroup(), true, serverNonce, hello.clientNonce());
    }

    @Override
    protected void onTimeout(ChannelHandlerContext ctx, String reason) {
        refuse(ctx, reason + ": " + stalledBefore("HELLO"), false);
    }

    /**
     * Final: tells the peer why (only if it proved the secret, see the class comment), then closes.
     * The full reason is logged and reported either way.
     */
    private void refuse(ChannelHandlerContext ctx, String reason, boolean peerAuthenticated) {
        if (!isFinished()) {
            String told = peerAuthenticated ? reason : UNDISCLOSED_REASON;
            // Written before fail() closes the channel; the close flushes it out first.
            ctx.writeAndFlush(Handshake.refuse(ctx.alloc(), told)).addListener(ChannelFutureListener.CLOSE);
            fail(ctx, reason, null);
        }
    }

    @Override
    protected void onFailure(ChannelHandlerContext ctx, String reason, Throwable causeOrNull) {
        var remote = ctx.channel().remoteAddress();
        admission.logRefused(remote, reason);
        handler.onRefused(remote, reason);
        ctx.close();
    }

    @Override
    protected void onFinished() {
        admission.release();
    }
}
