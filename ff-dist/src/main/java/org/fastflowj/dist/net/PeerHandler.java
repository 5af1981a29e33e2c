package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;

/**
 * What the layer above sees of its connections.
 *
 * <p>Threading: every method is called on the link's event loop, so calls for one link never overlap
 * and come in order ({@code onOpen}, any number of {@code onFrame}, then exactly one {@code
 * onClosed}). They must not block: hand the work to a node thread and return.
 */
public interface PeerHandler {

    /** The handshake succeeded; the link may be used from any thread from now on. */
    void onOpen(PeerLink link);

    /**
     * An application frame ({@code type >= 0x10}) arrived. The handler owns {@code payload} and must
     * release it, also when it throws.
     */
    void onFrame(PeerLink link, byte type, ByteBuf payload);

    /**
     * The link is gone. {@code causeOrNull} is null when it was closed cleanly (by the peer or by
     * {@link PeerLink#close()}), else a {@link PeerException} naming the peer and what happened: the
     * heartbeat timeout, a reset, a corrupt frame, a TLS failure.
     */
    void onClosed(PeerLink link, Throwable causeOrNull);

    /**
     * An inbound connection was refused or dropped before its handshake completed (a stranger, a
     * wrong secret, garbage, a plain client against TLS...), with the full reason (the peer itself was
     * told it only if it proved the secret). It is also logged at WARN, at most one line a second with a
     * count of the lines left out; the default does nothing more.
     */
    default void onRefused(SocketAddress remote, String reason) {}
}
