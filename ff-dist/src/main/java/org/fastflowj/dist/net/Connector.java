package org.fastflowj.dist.net;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.util.concurrent.Promise;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.util.concurrent.TimeUnit;

/**
 * One blocking {@link Transport#connect}: TCP connect with retries while the peer is not up yet, then
 * the handshake. Groups start in any order, so "connection refused" for a while is normal (retried on
 * {@link ConnectBackoff}'s schedule); a REFUSE from the peer is not, and ends the attempt at once.
 *
 * <p>Threading: used by the calling thread only, for one call.
 */
final class Connector {
    /** Extra time granted over the handshake timeout the handler enforces itself. */
    private static final long HANDSHAKE_GRACE_MS = 2_000;

    private final Transport transport;
    private final String peerGroup;
    private final InetSocketAddress address;
    private final String peer;

    Connector(Transport transport, String peerGroup, InetSocketAddress address) {
        this.transport = transport;
        this.peerGroup = peerGroup;
        this.address = address;
        this.peer = "group " + peerGroup + " at " + Addresses.describe(address);
    }

    PeerLink connect() {
        long timeoutMs = transport.settings().connectTimeoutMs();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        ConnectBackoff backoff = new ConnectBackoff();
        while (true) {
            Promise<PeerLink> handshake = transport.newPromise();
            long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            ChannelFuture connected = transport
                    .clientBootstrap(peerGroup, address, handshake)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(remainingMs, 10_000))
                    .connect(address);
            await(connected, Long.MAX_VALUE);
            Throwable cause;
            if (connected.isSuccess()) {
                try {
                    return awaitHandshake(connected, handshake);
                } catch (ClosedBeforeChallengeException e) {
                    cause = e; // the peer is at its cap of pending handshakes: like a refused connect
                } catch (ClosedDuringHandshakeException e) {
                    cause = e; // the peer's run ending, or the peer going down: it may be up again soon
                }
            } else {
                cause = connected.cause();
            }
            if (!isRetriable(cause) || transport.isClosed()) {
                throw new PeerUnavailableException("cannot connect to " + peer + ": " + cause.getMessage(), cause);
            }
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (leftMs <= 0) {
                throw new PeerUnavailableException(
                        peer + " did not come up within " + timeoutMs + " ms: " + shortReason(cause), cause);
            }
            sleep(Math.min(backoff.nextWaitMs(), leftMs));
        }
    }

    private PeerLink awaitHandshake(ChannelFuture connected, Promise<PeerLink> handshake) {
        long waitMs = transport.settings().handshakeTimeoutMs() + HANDSHAKE_GRACE_MS;
        if (!await(handshake, waitMs)) {
            connected.channel().close();
            throw new PeerLinkFailedException("handshake with " + peer + " did not finish within " + waitMs + " ms");
        }
        if (handshake.isSuccess()) {
            return handshake.getNow();
        }
        Throwable cause = handshake.cause();
        throw cause instanceof PeerException known ? known : new PeerLinkFailedException(peer + ": " + cause, cause);
    }

    private boolean await(io.netty.util.concurrent.Future<?> future, long timeoutMs) {
        try {
            return future.await(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (future instanceof ChannelFuture channelFuture) {
                channelFuture.channel().close();
            }
            throw new PeerUnavailableException("interrupted while connecting to " + peer, e);
        }
    }

    private void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerUnavailableException("interrupted while waiting for " + peer + " to come up", e);
        }
    }

    /** The peer may just not be up yet (or the network is still settling): worth another try. */
    static boolean isRetriable(Throwable cause) {
        return cause instanceof ConnectException
                || cause instanceof ClosedBeforeChallengeException
                || cause instanceof ClosedDuringHandshakeException
                || cause instanceof NoRouteToHostException
                || cause instanceof PortUnreachableException;
    }

    static String shortReason(Throwable cause) {
        if (cause instanceof ConnectTimeoutException) {
            return "connect timed out";
        }
        if (cause instanceof ConnectException) {
            return "Connection refused";
        }
        if (cause instanceof NoRouteToHostException) {
            return "No route to host";
        }
        if (cause instanceof ClosedBeforeChallengeException || cause instanceof ClosedDuringHandshakeException) {
            return cause.getMessage();
        }
        return String.valueOf(cause.getMessage());
    }
}
