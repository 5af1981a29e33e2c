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
 */
package org.fastflowj.core.runtime;
