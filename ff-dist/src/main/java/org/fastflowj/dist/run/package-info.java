/**
 * One group of a distributed program, run on ff-core's executor with bridges to the other groups.
 *
 * <p>Design note. {@link org.fastflowj.dist.run.GroupRun} cuts the whole graph down to the group
 * ({@code GraphCut}); every edge to another group ends at a {@code SenderTask} (one per peer group), every
 * edge from another group starts at a {@code ReceiverTask} (one per peer group). Bridges are engine tasks,
 * not nodes ({@code BridgeTask} in ff-core, run on a thread of their own, {@code ff-send-G}/{@code
 * ff-recv-G}, by a {@code BridgeRunner}): they drain and offer to the engine's channels directly ({@code
 * BridgeChannels}), end one channel at a time and close one input at a time, so EOS, feedback ends and
 * early termination cross groups edge by edge, as they travel in one process. {@link
 * org.fastflowj.dist.run.GroupBridges} makes the bridges and their links, {@code LocalRun} holds the run
 * (or a failure that came before it), {@code GroupEnd} ends it.
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
 * <p>The packages, each depending only on those before it ({@code DistPackageLayersTest}):
 *
 * <ul>
 *   <li>{@code run.recovery}: surviving the loss of a group of recoverable workers;
 *   <li>{@code run.link}: a connection's two ends, {@code OutboundLink} and {@code InboundLink}, their
 *       credits and byte windows, and the link's failures;
 *   <li>{@code run.bridge}: the engine tasks at the ends of a cut edge ({@code SenderTask}, {@code
 *       ReceiverTask}) and their batch framing ({@code BatchWriter}, {@code BatchReader});
 *   <li>{@code run.lifecycle}: how a group's run ends and fails together with its peers ({@code
 *       GroupLinks}, {@code EndAgreement}, {@code PeerAborts}, {@code GroupEnd});
 *   <li>this package: the run itself ({@code GroupRun}, {@code GroupBridges}, the per-run settings, the
 *       graph's fingerprint, the stats reporter) and the {@code GraphRunner} service.
 * </ul>
 *
 * <p>With {@code DFF.checkSerialization} and no group, {@link org.fastflowj.dist.run.DistributedGraphRunner}
 * runs the whole graph in one process with every item round-tripped through an {@code ItemCodec} ({@code
 * RunHooks.itemFilters}).
 */
package org.fastflowj.dist.run;
