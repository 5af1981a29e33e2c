/**
 * A node vertex's runner. A node's thread runs a {@code NodeRunner}, built from parts picked once when the
 * graph is wired (an {@code InputGate}, an {@code OutputRouter}, the channel work they share, its waits),
 * so its per-item loop tests no mode. With checkpoints, {@code BarrierAlignment} aligns a node's inputs on
 * each barrier; {@code NodeAccess} is the engine's door into a node's protected life-cycle methods.
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
 */
package org.fastflowj.core.runtime.node;
