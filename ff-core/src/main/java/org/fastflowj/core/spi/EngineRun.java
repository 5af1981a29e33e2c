package org.fastflowj.core.spi;

import java.util.concurrent.TimeUnit;

/**
 * A started run as the API sees it: its threads, its failure and its metrics server.
 *
 * @param <S> the API's run statistics
 */
public interface EngineRun<S> {
    /** Waits for every node thread; rethrows the run's failure or cancellation. */
    void await();

    /** As {@link #await()}, at most {@code timeout}; false if the run goes on. */
    boolean await(long timeout, TimeUnit unit);

    /** Whether every node thread has ended. */
    boolean isDone();

    /** Whether the run failed or was cancelled. */
    boolean isStopped();

    /** Stops every node thread at its next check; nothing if the run already ended. */
    void cancel();

    /** Per-node statistics, a snapshot while the run goes on. */
    S stats();

    /** The port of the run's live page, or -1 if it serves none. */
    int uiPort();

    /** Takes down the run's MBeans and metrics server; idempotent. */
    void closeMetrics();
}
