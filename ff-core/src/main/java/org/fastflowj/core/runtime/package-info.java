/**
 * The executor: one platform thread per vertex, one JCTools SPSC queue ({@code SpscChannel}) per edge.
 * {@code LocalEngine} starts a run, {@code Executor.wire} makes a channel per edge and a runner per
 * vertex, {@code Execution} joins or cancels it, {@code GraphRunners} lets a {@code GraphRunner} (ff-dist's)
 * take the graph first, and {@code CheckpointedRun} restarts a run from its last checkpoint.
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
 * <p>Its packages, bottom up, with no cycle ({@code PackageLayersTest}): {@code queue} (the SPSC queues),
 * {@code channel} (a channel, what either end of it does, the one wait and the threads), {@code recovery}
 * (the hooks a recoverable run plugs in), {@code control} (what a run's threads share: the first failure,
 * cancellation, fatal errors, the checkpoint under way, CPU pinning), {@code node} (a node vertex's runner
 * and its parts), {@code bridge} (an engine task's runner); this package on all of them. Their public
 * members are the engine's own, shared between its packages and with ff-dist's bridges: the module
 * exports them to ff-dist only, and they are no API.
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
 */
package org.fastflowj.core.runtime;
