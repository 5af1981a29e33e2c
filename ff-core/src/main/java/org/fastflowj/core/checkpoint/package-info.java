/**
 * Checkpoints: state that survives a failure. With {@code RunOptions.checkpoints(interval, store)} the
 * run's sources put numbered barriers into their streams; a node with several inputs aligns them (it
 * stops taking from an input whose barrier came until every input's has); each node writes its state
 * ({@link org.fastflowj.core.checkpoint.Checkpointed}) and passes the barrier on; the checkpoint is
 * complete once every node did and the {@link org.fastflowj.core.checkpoint.CheckpointStore} holds it.
 * A {@link org.fastflowj.core.checkpoint.RestartStrategy} starts a failed run again from there.
 */
package org.fastflowj.core.checkpoint;
