package org.fastflowj.core;

/**
 * A node threw during a run: the first such failure ends the whole run, and {@code waitEnd} throws this,
 * naming the node (its thread name, e.g. {@code ff-farm1-worker3}) and the method, with the cause.
 */
public class NodeFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String nodeName;
    private final String phase;

    public NodeFailedException(String nodeName, String phase, Throwable cause) {
        super("node " + nodeName + " failed in " + phase + ": " + cause, cause);
        this.nodeName = nodeName;
        this.phase = phase;
    }

    /** The failing node's name, which is also its thread's name. */
    public String nodeName() {
        return nodeName;
    }

    /** The life-cycle method that threw: svcInit, svc, eosNotify or svcEnd. */
    public String phase() {
        return phase;
    }
}
