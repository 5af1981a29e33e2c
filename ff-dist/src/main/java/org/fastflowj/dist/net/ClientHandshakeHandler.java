package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The connecting side of the handshake: checks that the server's certificate names the group it
 * dialled (with TLS), answers the CHALLENGE with a HELLO, checks the WELCOME's proof when a secret is
 * set, and completes {@code result} with the open link or the failure ({@link PeerRefusedException} for
 * a REFUSE, which is final; {@link ClosedBeforeChallengeException} when the peer hung up at once, which
 * {@link Connector} retries).
 *
 * <p>Threading: one instance per channel, on its event loop only; {@code result} is awaited by the
 * thread in {@link Transport#connect}.
 */
final class ClientHandshakeHandler extends AbstractHandshakeHandler {
    private final String peerGroup;
    private final String peerDescription;
    private final Promise<PeerLink> result;
    private long activeNanos;
    private byte[] serverNonce;
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
    public void channelActive(ChannelHandlerContext ctx) {
        activeNanos = System.nanoTime();
        super.channelActive(ctx);
    }

    @Override
    protected void onTransportReady(ChannelHandlerContext ctx) {
        // Checked before the HELLO, so a server with a certificate for another name learns nothing.
        String certificate = certificateProblem(ctx, peerGroup);
        if (certificate != null) {
            fail(ctx, "the server presented the wrong certificate: " + certificate, null);
        }
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
        fail(ctx, reason + ": " + stalledAt(), null);
    }

    /** Where the handshake stopped, and what that usually means. */
    private String stalledAt() {
        return clientNonce == null
                ? stalledBefore("CHALLENGE")
                : "no answer to our HELLO (the peer is frozen or overloaded)";
    }

    private void answerChallenge(ChannelHandlerContext ctx, byte[] nonce) {
        serverNonce = nonce;
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
        PeerLink link = openLink(ctx, peerGroup, false, serverNonce, clientNonce);
        result.trySuccess(link);
    }

    private void refused(ChannelHandlerContext ctx, String reason) {
        // Completed first, so the generic failure from fail() below finds the promise already done.
        result.tryFailure(new PeerRefusedException(peerDescription + " refused the connection: " + reason, reason));
        fail(ctx, reason, null);
    }

    @Override
    protected void onFailure(ChannelHandlerContext ctx, String reason, Throwable causeOrNull) {
        if (closedAtOnceBeforeChallenge(ctx, causeOrNull)) {
            result.tryFailure(new ClosedBeforeChallengeException(
                    peerDescription + " closed every connection at once, before its CHALLENGE (too many connections"
                            + " in their handshake there? see its log)"));
            ctx.close();
            return;
        }
        if (clientNonce != null && causeOrNull == null && !ctx.channel().isActive()) {
            result.tryFailure(new ClosedDuringHandshakeException(peerDescription
                    + " closed the connection after its CHALLENGE without refusing it (a run of it ending, or it"
                    + " went down: see its log)"));
            ctx.close();
            return;
        }
        String why =
                clientNonce == null && causeOrNull == null && !ctx.channel().isActive()
                        ? "it closed the connection before its CHALLENGE (it uses TLS and this group does not, or it"
                                + " dropped us: see its log)"
                        : reason;
        result.tryFailure(
                new PeerLinkFailedException("handshake with " + peerDescription + " failed: " + why, causeOrNull));
        ctx.close();
    }

    /**
     * The peer hung up before its CHALLENGE, within half the handshake timeout of the connect: a group
     * at its cap of pending handshakes does that (the connect is retried); a group that timed us out, or
     * a TLS group facing a plain client, takes the whole timeout.
     */
    private boolean closedAtOnceBeforeChallenge(ChannelHandlerContext ctx, Throwable causeOrNull) {
        // A close is seen as an inactive channel (plain TCP), a ClosedChannelException (TLS) or, when
        // the peer closed with our TLS hello unread, a connection reset (an IOException, not a TLS error).
        boolean peerClosed = causeOrNull == null
                ? !ctx.channel().isActive()
                : causeOrNull instanceof IOException && !(causeOrNull instanceof SSLException);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - activeNanos);
        return peerClosed && serverNonce == null && elapsedMs < settings.handshakeTimeoutMs() / 2;
    }
}
