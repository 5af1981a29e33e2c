/**
 * The stream engine, compiled onto ff-core's blocks: the logical plan ({@code Transform}), its compiler
 * ({@code BlockCompiler}), the nodes it makes (head, operator, router, source, sink) and the operators.
 *
 * <p>Design: records cross channels as {@code Rec} (value and event time), watermarks as {@code Mark},
 * both on the SPSC channels of ff-core; a stage's operators run in one thread as a {@code Combiner}, so
 * an operator keeps its state (keyed maps, panes, timers) in plain fields. The only shared mutable
 * objects are the counters (atomic, on the late and error paths) and the side sinks (late records, dead
 * letters), whose writes are serialised because several instances feed them.
 */
package org.fastflowj.stream.internal;
