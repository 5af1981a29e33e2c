/**
 * The executor: one platform thread per vertex, one JCTools SPSC queue ({@code SpscChannel}) per edge.
 * A node's thread runs a {@code NodeRunner}, built from parts picked once when the graph is wired (an
 * {@code InputGate}, an {@code OutputRouter}, the channel work they share, its waits), so its per-item
 * loop tests no mode. A bridge vertex (ff-dist's network ends) runs a {@code BridgeTask} on a {@code
 * BridgeRunner} instead, which reads and writes its channels directly ({@code BridgeChannels}); both
 * kinds are a channel's {@code ChannelEnd}, the parker its neighbours wake.
 *
 * <p>Design note. Every channel has exactly one producer thread and one consumer thread, so the queues
 * need no lock and no CAS. A node with several inputs polls its queues in turn; a node with several
 * outputs picks one; there is never a shared queue. End of stream is the {@code Sentinel.EOS} object
 * travelling on a channel; GO_ON never travels. Waiting follows an {@code IdlePolicy} (spin, yield,
 * park); a parked thread is woken by its neighbour, which reads the park state after every offer or
 * poll. That read is a plain volatile load, not a fence, so a wake-up can be missed by a store-load
 * reordering; a full fence every 64 items, another before any thread parks, and a park time-out bound
 * the damage to a delay, never a hang (see {@code Parker}). Cancellation is a volatile flag in
 * {@code RunControl} plus an interrupt of every node thread.
 *
 * <h2>A runner's parts ({@code NodeRunner.wire}; {@code RunnerPartsTest} shows the part per shape)</h2>
 *
 * <ul>
 *   <li>The input side, {@code InputChannels}: the inputs and their state (current channel, open forward
 *       inputs, cursor, its wait), EOS and marks taken, producers woken for room, and its {@code
 *       InputGate}: {@code SingleInput}, {@code RoundRobinInputs} (one item per channel in turn, skipping
 *       ended ones), {@code OrderedInputs} (an ordered farm's collector); none for a source.
 *   <li>The output side, {@code OutputChannels}: the outputs and their state (EOS sent, live consumers,
 *       round-robin position, counts, its wait), offers, waits for room, consumers woken, EOS sent, then
 *       its {@code EndHook} ({@code EndHook.orderEnd} for an ordered farm's emitter).
 *   <li>{@code OutputRouter}: {@code Unrouted} (no output), {@code Single}, {@code RoundRobin} (the next
 *       channel with room; waits only when all are full), {@code OnDemand} (through an {@code
 *       OnDemandDispatch}), {@code RecordingRoundRobin} (an ordered farm's emitter), {@code Filtering}
 *       in front when {@code RunHooks.itemFilters} is set.
 *   <li>The item loop ({@code NodeRunner.ItemLoop}): {@code PRODUCE}, {@code CONSUME}, {@code
 *       CONSUME_UNROLLING} for an input from a bridge (whose {@code Chunk}s it unrolls), or {@code
 *       CONSUME_MARKING} for an ordered farm worker's first stage (a task mark after each item). Each loop
 *       method runs up to 1024 items per call, so the JIT compiles it whole.
 *   <li>{@code TaskMarks} (what a task mark taken does: passed on by a worker's later stage, else
 *       dropped), {@code IdleHook} ({@code Redeliverer} for a recoverable farm's emitter).
 * </ul>
 *
 * An ordered farm's roles ({@code Vertex.OrderRole}) are read by {@code NodeRunner.wire} only, which
 * turns them into the router, the gate, the end hook, the task marks and the item loop above; the order
 * channel is one more channel the emitter's output side produces to and the collector's input side
 * consumes, marked and woken with the others. The sides reach the runner through {@code NodeLife}.
 *
 * <p>The runner's own per-item fields sit behind the {@code Parker}'s padding and before its trailing
 * padding, and each side is an object padded at both ends ({@code PartPadding}), so what a node thread
 * writes per item shares no cache line another thread writes ({@code ParkingStateLayoutTest}). A
 * runner's life is a {@code RunPhase}, its forward outputs an {@code OutputSide}, each channel's ends an
 * {@code SpscChannel.Intake} and {@code SpscChannel.Outflow}.
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
 * <h2>Ends</h2>
 *
 * A node's loop ends when its inputs ended, {@code svc} returned EOS, it asked for the end, or all its
 * forward consumers are gone; it then sends EOS on every forward output, and {@code
 * ChannelEnd.endChannels} (a bridge runner's end too) tells both sides (producers stop feeding it,
 * consumers stop waiting for it). A loop head's {@code requestEnd}
 * sends EOS at once, closes its forward inputs and drains its feedback until every feedback producer is
 * done. The first failure ({@code RunControl.fail}) wins, cancels the run and interrupts every node
 * thread; {@code Cancelled} unwinds a runner without {@code svcEnd}. {@code Execution.await} joins the
 * threads and, after a cancellation, waits at most {@code Execution.CANCEL_GRACE_NANOS} for threads stuck
 * in user code, naming them. A {@code VirtualMachineError} on a node thread goes to {@code FatalErrors},
 * which runs the registered last words for at most {@code FatalErrors.LAST_WORDS_MS} and halts the JVM.
 *
 * <h2>Threads</h2>
 *
 * {@code NodeThreads} keeps a thread whose runner ended for {@code NodeThreads.KEEP_ALIVE_NANOS}, for the
 * next run's runner; a thread pinned to a CPU ({@code Affinity}) exits instead. Each run's oversubscription
 * is judged once, from the JVM's processor count read once ({@code Executor}).
 */
package org.fastflowj.core.runtime;
