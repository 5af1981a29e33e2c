/**
 * What lets a distributed run survive the loss of a group that holds only workers of recoverable farms or
 * R-Workers of recoverable all-to-alls: the plan of which peers may be lost and which edges carry
 * recoverable items ({@code RecoveryPlan}), per worker the book of items sent and answered ({@code
 * RecoveryLedger}), an R-Worker's record of the order it took items in ({@code TakeOrder}, so each output
 * names the item it answers), the emitter's queue of items to send again ({@code LostItems}), and the
 * peers a group lost in its earlier runs, which its later runs go on without ({@code EarlierLosses}). The
 * engine plugs them in through its {@code Redelivery} and {@code TakeRecorder} hooks.
 *
 * <p>Depends on ff-core's graph and run-time, nothing else of {@code org.fastflowj.dist.run}: the bridge
 * tasks and the group's links call into it ({@code DistPackageLayersTest}).
 */
package org.fastflowj.dist.run.recovery;
