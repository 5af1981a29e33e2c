package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Promise;

/**
 * The connecting side of the handshake: answers the CHALLENGE with a HELLO, checks the WELCOME's
 * proof when a secret is set, and completes {@code result} with the open link or the failure
 * ({@link PeerRefusedException} for a REFUSE, which is final).
 *
 * <p>Threading: one instance per channel, on its event loop only; {@code result} is awaited by the
 * thread in {@link Transport#connect}.
 */
final class ClientHandshakeHandler extends AbstractHandshakeHandler {
    private final String peerGroup;
    private final String peerDescription;
    private final Promise<PeerLink> result;
    private byte[] clientNonce;

    ClientHandshakeHandler(
            WireSettings settings,
            PeerHandler handler,
            String peerGroup,
            String peerAddress,
            Promise<PeerLink> result) {
        super(settings, handler);
        this.peerGroup = peerGroup;
        this.peerDescription = "group " + peerGroup + " at " + peerAddress;
        this.result = result;
    }

    @Override
    protected void onTransportReady(ChannelHandlerContext ctx) {
        // Nothing to send: the server speaks first with its CHALLENGE.
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (isFinished()) {
                return;
            }
            byte type = frame.readByte();
            if (type == Frames.CHALLENGE && clientNonce == null) {
                answerChallenge(ctx, Handshake.readNonce(frame));
            } else if (type == Frames.WELCOME && clientNonce != null) {
                checkWelcome(ctx, Handshake.readProof(frame));
            } else if (type == Frames.REFUSE) {
                String reason = Handshake.readUtf(frame);
                refused(ctx, reason);
            } else {
                fail(ctx, "unexpected " + Frames.typeName(type) + " frame during the handshake", null);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    protected void onTimeout(ChannelHandlerContext ctx, String reason) {
        fail(ctx, clientNonce != null ? reason : reason + " (no CHALLENGE received: TLS on one side only?)", null);
    }

    private void answerChallenge(ChannelHandlerContext ctx, byte[] serverNonce) {
        clientNonce = Handshake.newNonce();
        String local = settings.localGroup();
        long fingerprint = settings.fingerprint();
        byte[] proof = Handshake.proof(settings.secretOrNull(), serverNonce, local, peerGroup, fingerprint);
        var hello = new Handshake.Hello(local, peerGroup, fingerprint, clientNonce, proof);
        ctx.writeAndFlush(Handshake.hello(ctx.alloc(), hello), ctx.voidPromise());
    }

    private void checkWelcome(ChannelHandlerContext ctx, byte[] proof) {
        byte[] secret = settings.secretOrNull();
        if (secret != null) {
            byte[] expected =
                    Handshake.proof(secret, clientNonce, peerGroup, settings.localGroup(), settings.fingerprint());
            if (!Handshake.proofMatches(expected, proof)) {
                fail(ctx, "authentication failed: the peer did not prove the shared secret", null);
                return;
            }
        }
        PeerLink link = openLink(ctx, peerGroup, false);
        result.trySuccess(link);
    }

    private void refused(ChannelHandlerContext ctx, String reason) {
        // Completed first, so the generic failure from fail() below finds the promise already done.
        result.tryFailure(new PeerRefusedException(peerDescription + " refused the connection: " + reason, reason));
        fail(ctx, reason, null);
    }

    @Override
    protected void onFailure(ChannelHandlerContext ctx, String reason, Throwable causeOrNull) {
        result.tryFailure(
                new PeerLinkFailedException("handshake with " + peerDescription + " failed: " + reason, causeOrNull));
        ctx.close();
    }
}
