package org.fastflowj.core.runtime.recovery;

/**
 * How a run survives the loss of some of its consumers (ff-dist: a group holding only workers of a
 * recoverable farm or R-Workers of a recoverable all-to-all), node by node: the one hook through which
 * recovery enters a run ({@link org.fastflowj.core.runtime.control.RunHooks#recovery}). The runner asks it once per node while wiring; a node
 * for which both answers are null is wired as in any run and pays nothing per item. Recovery then works
 * through the parts it is given: a farm emitter's {@link org.fastflowj.core.runtime.node.Redeliverer} counts what its router sends (a
 * router decorator) and sends lost items again while it waits, and an R-Worker's input gate tells its
 * {@link TakeRecorder} what it took.
 *
 * <p>Threading: asked on the thread that wires the run, before any node thread starts.
 */
public interface RecoveryHooks {
    /** No recovery: every answer null. */
    RecoveryHooks NONE = new RecoveryHooks() {
        @Override
        public Redelivery redeliveryFor(String nodeName) {
            return null;
        }

        @Override
        public TakeRecorder takeRecorderFor(String nodeName) {
            return null;
        }
    };

    /** The items a farm's emitter, by its thread name, may have to send again, or null. */
    Redelivery redeliveryFor(String nodeName);

    /** What hears the items a node, by its thread name, takes from its forward inputs, or null. */
    TakeRecorder takeRecorderFor(String nodeName);
}
