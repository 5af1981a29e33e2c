/**
 * FastFlow's upper layer: parallel patterns built on the building blocks of {@code org.fastflowj.core},
 * never on a JDK thread pool: {@link org.fastflowj.patterns.ParallelFor} (FastFlow's {@code ParallelFor}
 * and {@code ParallelForReduce}), {@link org.fastflowj.patterns.ParallelMap} ({@code ff_Map}), {@link
 * org.fastflowj.patterns.DivideAndConquer} ({@code ff_DC}), {@link org.fastflowj.patterns.MacroDataFlow}
 * ({@code ff_mdf}, the DF-Threads model), {@link org.fastflowj.patterns.TaskFarm} ({@code ff_taskf}) and
 * {@link org.fastflowj.patterns.PoolEvolution} ({@code poolEvolution}).
 *
 * <p>Design note on {@link org.fastflowj.patterns.ParallelFor}: a farm whose emitter is the loop scheduler
 * and whose workers feed their tickets back to it, started once through an
 * {@link org.fastflowj.core.Accelerator} and fed one job per call. Nothing is allocated per call: the
 * job and one ticket per worker are reused, handed over through the farm's SPSC channels, whose
 * release/acquire hand-offs are the only ordering the plain fields rely on. Static blocks are computed
 * by the scheduler; dynamic chunks are claimed by the workers themselves with one atomic add each (as in
 * FastFlow's {@code nextTaskConcurrent}), because a round trip through the scheduler per chunk would put
 * a third thread on the critical path of every chunk. The call ends when every ticket is back: the
 * scheduler sets a volatile flag and unparks the caller.
 *
 * <p>Design note on DivideAndConquer and MacroDataFlow: both are a farm with feedback whose emitter
 * hands tasks out on demand. In DivideAndConquer the emitter is the only thread that owns the task tree;
 * the workers only run user code and send the task back, so the book-keeping needs no synchronisation:
 * every hand-over is an SPSC channel, which orders memory. MacroDataFlow's tasks are too fine for a round
 * trip per task: the generator links each task frame after its predecessors, and the worker that completes
 * a task releases its successors' atomic counts and runs one that became ready itself; only the other
 * ready successors go back through the emitter. The task objects themselves are the messages, so nothing
 * is allocated per hand-over.
 */
package org.fastflowj.patterns;
