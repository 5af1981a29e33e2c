/**
 * The transport between groups: Netty channels, framing, the authenticated handshake, heartbeats and
 * TLS. The layer above (batching, credits, serialization) sees only {@link
 * org.fastflowj.dist.net.Transport}, {@link org.fastflowj.dist.net.PeerLink} and {@link
 * org.fastflowj.dist.net.PeerHandler}.
 *
 * <h2>Connections</h2>
 *
 * Each group listens on its endpoint. For every ordered pair of communicating groups (G sends to H)
 * there is one TCP connection, opened by G to H: data batches flow G to H, credits and small control
 * messages H to G on the same connection. Groups start in any order, so the sender retries "connection
 * refused" until its connect timeout; a REFUSE from the peer is final.
 *
 * <h2>Frames</h2>
 *
 * {@code int32 length | byte type | payload}; {@code length} counts type and payload and must lie in
 * {@code [1, maxFrameBytes]} ({@code [1, 4096]} until the handshake succeeded), checked before any
 * allocation. Types 0x01 to 0x0F are the transport's:
 *
 * <ul>
 *   <li>0x01 CHALLENGE, server to client on accept: a 16-byte nonce;
 *   <li>0x02 HELLO, client to server: magic "FFJ1", version 1, from-group, to-group, graph fingerprint,
 *       a client nonce and HMAC-SHA256(secret, serverNonce|from|to|fingerprint) (zeros without secret);
 *   <li>0x03 WELCOME, server to client: HMAC-SHA256(secret, clientNonce|to|from|fingerprint), so the
 *       client knows the server has the secret too;
 *   <li>0x04 REFUSE, either way: a reason, then the sender closes;
 *   <li>0x05 HEARTBEAT, either way, empty: written after {@code heartbeatIntervalMs} without any write;
 *       a link that reads nothing for {@code heartbeatTimeoutMs} is dead;
 *   <li>0x06 MAC, either way, on links with a secret and without TLS (not loopback-to-loopback): after
 *       every frame, HMAC-SHA256 of the frame's sequence number, length, type and payload under a key
 *       per direction derived from the secret and both nonces ({@link org.fastflowj.dist.net.FrameSealer}).
 * </ul>
 *
 * <h2>Who may join</h2>
 *
 * With a secret, a peer that cannot prove it is refused before any name or fingerprint is compared,
 * and a REFUSE tells only a peer that proved the secret why; others read a fixed text and the reason
 * goes to the accepting group's log (rate-limited). With TLS each side checks that the other's
 * certificate names the group it claims or was dialled as ({@link org.fastflowj.dist.net.WireSettings#tlsNames()}). At most 64
 * inbound connections per transport may be in their handshake; more are closed at once.
 *
 * Types from 0x10 on are the layer above's and pass through unchanged, the payload's ownership with
 * them. {@code FrameDecoder} hands a frame of up to {@code HEAP_FRAME_MAX_BYTES} on
 * as a heap copy, a bigger one as a slice of the buffers it was read into, without a copy. {@link org.fastflowj.dist.net.Frames} holds the whole wire format, the run layer's types and
 * batch messages included.
 *
 * <h2>Threads</h2>
 *
 * A transport has two event-loop threads ({@code ff-dist-io-<group>-<n>}). They only frame, shake
 * hands, write heartbeats and hand frames off to {@link org.fastflowj.dist.net.PeerHandler}, which
 * must not block; serialization and everything else happens on node threads above. Node threads call
 * {@link org.fastflowj.dist.net.PeerLink#send} directly: each frame is one write of a composite
 * buffer (header + payload, no copy), so frames from different threads never interleave, and a {@code
 * FlushConsolidationHandler} merges the flushes of a burst.
 *
 * <h2>Failures</h2>
 *
 * Any exception on a channel closes that channel only, and is reported once: before the handshake as
 * {@code onRefused} (inbound, also logged at WARN) or as the exception of {@code connect} (outbound);
 * after it as {@code onClosed(link, cause)}, where {@code cause} is null only for a clean close. Every
 * message names the peer group (when known) and its address.
 */
package org.fastflowj.dist.net;
