package org.fastflowj.core;

import java.util.concurrent.TimeUnit;

/**
 * Whether a node thread still runs a node. Node threads are reused from run to run, so the thread of an
 * ended node may live on, idle, under the name {@link #IDLE_NAME}.
 */
public final class NodeThreadStates {
    /** The name of a node thread waiting for its next node (the run-time's {@code NodeThreads.IDLE_NAME}). */
    public static final String IDLE_NAME = "node-thread-idle";

    private NodeThreadStates() {}

    /** Whether {@code t} is alive and runs a node (not idle, not ended). */
    public static boolean runsANode(Thread t) {
        return t.isAlive() && !IDLE_NAME.equals(t.getName());
    }

    /** Waits at most {@code millis} ms until {@code t} no longer runs a node; whether it stopped. */
    public static boolean awaitNoNode(Thread t, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (runsANode(t)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
