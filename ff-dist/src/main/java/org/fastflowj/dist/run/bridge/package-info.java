/**
 * The engine tasks at the two ends of a cut edge and their batch framing: {@link
 * org.fastflowj.dist.run.bridge.SenderTask} drains the channels to one peer group, {@link
 * org.fastflowj.dist.run.bridge.BatchWriter} writes their items into batches ({@code BatchSizer} picks the
 * batch size), which the sender hands to its {@code OutboundLink}; {@link
 * org.fastflowj.dist.run.bridge.ReceiverTask} takes the batches of one peer group from its {@code
 * InboundLink}, {@link org.fastflowj.dist.run.bridge.BatchReader} decodes them, and the receiver offers the
 * items to the local channels ({@code ChannelBytes} counts the bytes on them). Each task is its loop, its
 * ends and its credits.
 *
 * <p>Sizes on the item path. The producer's channel into a sender gathers items into chunks of at most
 * {@code SenderTask.inputChunkCapacity} items (the sender's largest batch, capped) and a quarter of the
 * channel; {@code BatchWriter} writes batches up to {@code HEAP_BATCH_MAX_BYTES} in heap memory, bigger
 * ones in direct memory; a receiver hands each batch's items for one local channel over as {@code Chunk}s
 * of at most {@code ReceiverTask.CHUNK_MAX_BYTES} of serialized items, which the consumer's runner unrolls.
 *
 * <p>On-demand edges across groups: the sender counts each item it sends on one until the receiver reports
 * (TAKEN) that the worker took it, and holds that input while the worker's window is full; {@link
 * org.fastflowj.dist.run.bridge.OnDemandWindow} sizes the window (one or two slots' worth) by the worker's
 * pace. The producer's dispatch then finds the slot full and picks another worker, as for a busy one.
 *
 * <p>Depends on {@code run.link} and {@code run.recovery} (the ledgers a recoverable edge's tasks keep),
 * not on the group's lifecycle nor on the run ({@code DistPackageLayersTest}).
 */
package org.fastflowj.dist.run.bridge;
