/**
 * The hooks through which a recoverable farm or all-to-all survives a lost worker: {@code RecoveryHooks}
 * (set with {@code RunHooks.recovery}) gives an emitter its {@code Redelivery} (the items a lost worker
 * left unanswered) and an R-Worker its {@code TakeRecorder} (the order it took items in). ff-dist's
 * {@code RecoveryPlan} implements them; in one process there are none.
 *
 * <p>Depends on nothing else of the run-time ({@code PackageLayersTest}).
 */
package org.fastflowj.core.runtime.recovery;
