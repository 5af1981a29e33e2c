/**
 * One connection between two groups, seen from each end: {@link org.fastflowj.dist.run.link.OutboundLink}
 * (the sender's side: credits, bytes in flight, what the peer's consumers took and ended) and {@link
 * org.fastflowj.dist.run.link.InboundLink} (the receiver's side: the batches the event loop hands over),
 * the {@link org.fastflowj.dist.run.link.StallWatch} that fails a link whose peer stopped acknowledging,
 * and the link's failures ({@link org.fastflowj.dist.run.link.PeerLostException}, {@link
 * org.fastflowj.dist.run.link.CorruptBatchException}).
 *
 * <p>Flow control is end to end: the receiver acknowledges a batch only after its items are on local
 * channels; the sender has {@code messageOTF} credits per connection, and sends only while fewer than the
 * receiving group's {@code maxBufferedBytesPerLink} bytes are unacknowledged. The only shared counters are
 * the credits and bytes in flight (atomics) and the park flags of the two bridge threads; each class comment
 * says why its wake-up cannot be lost (or, for the receiver's park time-out, is bounded).
 *
 * <p>The receiver does not trust the sender: {@code InboundLink} counts the batches it holds
 * unacknowledged and their bytes, fails the run naming the peer when a sender goes beyond its credits or
 * its byte window, and pauses reading from the peer while it holds {@code maxBufferedBytesPerLink} bytes
 * (batches not read yet plus items on local channels, counted by the receiver's {@code ChannelBytes}).
 * Only the event loop turns reading off or on; the receiver asks it to look again after giving room back.
 *
 * <p>Depends on ff-core, {@code org.fastflowj.dist} and {@code .net}, nothing else of {@code dist.run}:
 * the bridge tasks and the group's lifecycle use the links ({@code DistPackageLayersTest}).
 */
package org.fastflowj.dist.run.link;
