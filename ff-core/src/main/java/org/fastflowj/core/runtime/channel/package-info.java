/**
 * A channel and the threads at its two ends. {@code SpscChannel} wraps one queue of {@code
 * runtime.queue} with what either end does to it; {@code ChannelEnd} is the base of every runner (a node's
 * or an engine task's), the {@code Parker} its neighbours wake; {@code OnDemandDispatch} stages an
 * on-demand farm's items for short slots; {@code ChannelGathering} and {@code Chunk} carry many items per
 * slot on a channel into or out of a bridge.
 *
 * <h2>Waits</h2>
 *
 * {@code IdlePolicy} holds the numbers (spins, yields, first park, wake batch) per {@code WaitStrategy}
 * and per whether the run's busy threads outnumber the cores (a {@code GraphRunner} adds its own through
 * {@code RunHooks.otherBusyThreads}); {@code IdleStrategy} steps through them, doubling each park that
 * found nothing up to {@code IdlePolicy.MAX_PARK_NANOS}. A park after the first is announced {@code
 * Parker.LONG}, and a producer then wakes the consumer for a single item ({@code IdleWakeUpTest});
 * otherwise it wakes it once {@code SpscChannel.wakeBatch} items are queued, when it is about to wait
 * itself, or when it ends. A consumer wakes a producer parked on a full channel once it drained to
 * {@code SpscChannel.lowWater}. Wait loops ask {@code ChannelQueue.hasFreeSlots} and {@code relaxedPeek},
 * never the other side's index, whose cache line that side writes per item.
 *
 * <p>Each wait is written once. What either end of a channel does is {@code SpscChannel}'s: the
 * producer's {@code offered} (wake the consumer), {@code mayRefill} and {@code roomOrGone}, the
 * consumer's {@code tookOne} (wake the producer), and before a park {@code wakeConsumerIfItems} and
 * {@code wakeProducerIfRoom}. A node runner and a bridge runner are both a {@code ChannelEnd}, which
 * holds the one pause of a thread at channel ends ({@code ChannelEnd.pause}: the idle step, the
 * neighbours woken, the announcement, the re-check and the park, through {@code Parker.park}) and the
 * one end ({@code ChannelEnd.endChannels}); each names what it waits for as a {@code
 * Parker.WaitCondition} made once (the input side's {@code inputArrived}, the output side's {@code
 * roomArrived}, the bridge's {@code workArrived}). Waits outside channels (an accelerator's caller, a
 * network link, a pattern's caller through {@code Accelerator.awaitUntil}) take {@code IdleStrategy.of}
 * and {@code Parker.parkUnless}, the same park.
 *
 * <h2>Threads</h2>
 *
 * {@code NodeThreads} keeps a thread whose runner ended for {@code NodeThreads.KEEP_ALIVE_NANOS}, for the
 * next run's runner; a thread pinned to a CPU ({@code Affinity}) exits instead. Each run's oversubscription
 * is judged once, from the JVM's processor count read once ({@code Executor}).
 *
 * <p>Depends on the queues only ({@code PackageLayersTest}).
 */
package org.fastflowj.core.runtime.channel;
