/**
 * What the threads of one run share. {@code RunControl}: the first failure ({@code RunControl.fail}) wins,
 * cancels the run and interrupts every runner's thread; {@code Cancelled} unwinds a runner without {@code
 * svcEnd}. {@code FatalErrors}: a {@code VirtualMachineError} on a runner's thread runs the registered last
 * words for at most {@code FatalErrors.LAST_WORDS_MS} and halts the JVM. {@code RunHooks}: what a {@code
 * GraphRunner} adds to a run (item filters, failure and end actions, link statistics, other busy threads,
 * recovery). {@code
 * CheckpointCoordinator}: asks for checkpoints, collects each node's state ({@code NodeStates}) and saves a
 * checkpoint once every node gave its own; {@code CheckpointTally} counts them. {@code Affinity} pins a
 * runner's thread to a CPU.
 *
 * <p>Depends on {@code channel} and {@code recovery} only ({@code PackageLayersTest}).
 */
package org.fastflowj.core.runtime.control;
