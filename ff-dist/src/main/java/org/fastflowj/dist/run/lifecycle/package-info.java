/**
 * How a group's run ends and fails together with its peers: {@link
 * org.fastflowj.dist.run.lifecycle.GroupLinks} takes what the transport reports of the group's connections
 * to the links and, as failures and news of ends, to the run; {@link
 * org.fastflowj.dist.run.lifecycle.EndAgreement} tells when every group's part has ended, {@link
 * org.fastflowj.dist.run.lifecycle.PeerAborts} tells every peer of the run's first failure, {@link
 * org.fastflowj.dist.run.lifecycle.GroupEnd} waits for the others' ends and closes the links and the
 * transport, {@link org.fastflowj.dist.run.lifecycle.LocalRun} holds the local run or a failure that came
 * before it.
 *
 * <p>Ends and failures: a connection may close only after every edge on it ended (the receiver marks
 * itself done before its last acknowledgement; the sender judges a clean close on its own thread, since
 * acknowledgements may come in the same read as the close). Anything else fails the run, and the first
 * failure is sent to every peer (ABORT, naming the group where it started, {@link
 * org.fastflowj.dist.run.lifecycle.GroupFailedException}) and passed on by each. Even then the connections
 * stay open until every group's part has ended ({@code EndAgreement}: each group passes on the news of each
 * end, ENDED), so that a failure anywhere reaches every group, also one whose own part was done: every
 * process of a failed application exits non-zero.
 *
 * <p>The one loss a run survives: a peer that holds only workers of recoverable farms or R-Workers of
 * recoverable all-to-alls ({@code RecoveryPlan}; an R-Worker's outputs carry the channel and sequence of
 * the item they answer, from its {@code TakeOrder}). Its links close both ways and its end counts as heard;
 * each of its workers' {@code RecoveryLedger} (items sent, recorded by the sender; outputs back, counted by
 * the receiver) hands the unanswered items to the emitter ({@code LostItems}), after the receiver took the
 * last outputs that arrived, so each item is answered once.
 *
 * <p>Failures name their origin: {@link org.fastflowj.dist.run.lifecycle.FailureOrigin} prints {@code
 * DFF_FAILED:} (the origin as this group sees it, for the launcher) and, where a node's own code failed,
 * {@code DFF_FAILED_AT:} with the program's first frame ({@code ProgramFrames}); {@link
 * org.fastflowj.dist.run.lifecycle.FreezeDetector} lets a group that stood still blame itself.
 *
 * <p>Depends on {@code run.link} and {@code run.recovery}, not on the bridge tasks nor on the run ({@code
 * DistPackageLayersTest}).
 */
package org.fastflowj.dist.run.lifecycle;
