package org.fastflowj.core.runtime.node;

/**
 * Where a node thread is in its run: taking and producing items, asked to stop (by {@code svc}'s EOS, its
 * own {@code sendOut(eos())}, or every forward consumer gone), or ended (its channels marked done and
 * closed). A phase only moves forward.
 *
 * <p>Threading: the node thread's own; other threads never read it.
 */
public enum RunPhase {
    /** svcInit and the item loops: items are taken and sent. */
    RUNNING,
    /** The node asked to end: the item loop stops at its next check, then EOS goes out. */
    STOPPING,
    /** Its outputs are marked done and its inputs closed; final. */
    ENDED;

    /** The phase after an end request: a running node stops; a stopping or ended one stays where it is. */
    RunPhase stopRequested() {
        return this == RUNNING ? STOPPING : this;
    }
}
