package org.fastflowj.core.runtime.node;

/**
 * What a runner's sides ask of the runner ({@link NodeRunner}): whether the node still runs, that it stop
 * (every forward consumer is gone), and that the node be told an input ended.
 *
 * <p>Threading: the node thread.
 */
public interface NodeLife {
    /** Whether items are still taken and sent (neither a stop was asked nor the node ended). */
    boolean isRunning();

    /** Asks the node to end after the current call; a stopping or ended node stays where it is. */
    void requestStop();

    /** Forward input {@code channel} ended; {@code last}: it was the last one open. Runs the node's eosNotify. */
    void inputEnded(int channel, boolean last) throws Exception;
}
