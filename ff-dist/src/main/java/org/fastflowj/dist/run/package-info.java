/**
 * One group of a distributed program, run on ff-core's executor with bridges to the other groups.
 *
 * <p>Design note. {@link org.fastflowj.dist.run.GroupRun} cuts the whole graph down to the group
 * ({@code GraphCut}); every edge to another group ends at a {@code SenderTask} (one per peer group), every
 * edge from another group starts at a {@code ReceiverTask} (one per peer group). Bridges are engine tasks,
 * not nodes ({@code BridgeTask} in ff-core, run on a thread of their own, {@code ff-send-G}/{@code
 * ff-recv-G}, by a {@code BridgeRunner}): they drain and offer to the engine's channels directly ({@code
 * BridgeChannels}), end one channel at a time and close one input at a time, so EOS, feedback ends and
 * early termination cross groups edge by edge, as they travel in one process. Each task is its loop, its
 * ends and its credits; {@code BatchWriter} builds the sender's batches, {@code BatchReader} decodes the
 * receiver's, {@code OnDemandWindow} sizes a remote on-demand worker's window. {@code GroupBridges} makes
 * the bridges and their links, {@code LocalRun} holds the run (or a failure that came before it), {@code
 * GroupEnd} ends it.
 *
 * <p>One item from a source in G1 to a sink in G2:
 *
 * <pre>
 *   G1: source ──SPSC (gathering)──▶ ff-send-G2: SenderTask.doWork drains it, BatchWriter writes
 *       [DATA e0 n item...] into a batch, OutboundLink sends it for a credit ──TCP──▶
 *   G2: event loop ──InboundLink (SPSC of batches), wakes──▶ ff-recv-G1: ReceiverTask.doWork,
 *       BatchReader decodes, a Chunk per channel offered ──SPSC──▶ sink's runner unrolls it, svc per item;
 *       the receiver acknowledges (ACK: the credit goes back to G1)
 * </pre>
 *
 * <p>Threads and hand-offs, per item: the producer's SPSC channel to the sender (ff-core's queue); the
 * sender serializes into a pooled batch buffer and hands whole batches to Netty (one write per batch);
 * the connection's event loop hands each received batch to the receiver over a JCTools SPSC queue; the
 * receiver deserializes and puts each item on the consumer's SPSC channel. No lock anywhere on this
 * path, no blocking queue; serialization never runs on an event loop.
 *
 * <p>Flow control is end to end: the receiver acknowledges a batch only after its items are on local
 * channels; the sender has {@code messageOTF} credits per connection, and sends only while fewer than the
 * receiving group's {@code maxBufferedBytesPerLink} bytes are unacknowledged. The only shared counters are
 * the credits and bytes in flight (atomics) and the park flags of the two bridge threads; each class comment
 * says why its wake-up cannot be lost (or, for the receiver's park time-out, is bounded).
 *
 * <p>Ends and failures: a connection may close only after every edge on it ended (the receiver marks
 * itself done before its last acknowledgement; the sender judges a clean close on its own thread, since
 * acknowledgements may come in the same read as the close). Anything else fails the run, and the first
 * failure is sent to every peer (ABORT, naming the group where it started) and passed on by each. Even
 * then the connections stay open until every group's part has ended ({@code EndAgreement}: each group
 * passes on the news of each end, ENDED), so that a failure anywhere reaches every group, also one whose
 * own part was done: every process of a failed application exits non-zero. Each failing group prints
 * the origin as it sees it ({@code DFF_FAILED: G}, {@code FailureOrigin}) for the launcher.
 *
 * <p>The one loss a run survives: a peer that holds only workers of recoverable farms or R-Workers of
 * recoverable all-to-alls ({@code RecoveryPlan}; an R-Worker's outputs carry the channel and sequence of
 * the item they answer, from its {@code TakeOrder}). Its links close both ways and its end counts as heard; each of its workers' {@code
 * RecoveryLedger} (items sent, recorded by the sender; outputs back, counted by the receiver) hands the
 * unanswered items to the emitter ({@code LostItems}), after the receiver took the last outputs that
 * arrived, so each item is answered once.
 *
 * <p>Sizes on the item path. The producer's channel into a sender gathers items into chunks of at most
 * {@code SenderTask.inputChunkCapacity} items (the sender's largest batch, capped) and a quarter of the
 * channel; {@code
 * BatchWriter} writes batches up to {@code HEAP_BATCH_MAX_BYTES} in heap memory, bigger ones in direct
 * memory; a receiver hands each batch's items for one local channel over as {@code Chunk}s of at most
 * {@code ReceiverTask.CHUNK_MAX_BYTES} of serialized items, which the consumer's runner unrolls.
 *
 * <p>On-demand edges across groups: the sender counts each item it sends on one until the receiver reports
 * (TAKEN) that the worker took it, and holds that input while the worker's window is full; {@code
 * OnDemandWindow} sizes the window (one or two slots' worth) by the worker's pace. The producer's dispatch
 * then finds the slot full and picks another worker, as for a busy one.
 *
 * <p>The receiver does not trust the sender: {@code InboundLink} counts the batches it holds
 * unacknowledged and their bytes, fails the run naming the peer when a sender goes beyond its credits or
 * its byte window, and pauses reading from the peer while it holds {@code maxBufferedBytesPerLink} bytes
 * (batches not read yet plus items on local channels, counted by {@code ChannelBytes}). Only the event
 * loop turns reading off or on; the receiver asks it to look again after giving room back.
 *
 * <p>Failures name their origin: {@code FailureOrigin} prints {@code DFF_FAILED:} and, where a node's own
 * code failed, {@code DFF_FAILED_AT:} with the program's first frame ({@code ProgramFrames}); {@code
 * FreezeDetector} lets a group that stood still blame itself. With {@code DFF.checkSerialization} and no
 * group, {@code DistributedGraphRunner} runs the whole graph in one process with every item round-tripped
 * through an {@code ItemCodec} ({@code RunHooks.itemFilters}).
 */
package org.fastflowj.dist.run;
