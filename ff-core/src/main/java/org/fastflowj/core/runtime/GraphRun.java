package org.fastflowj.core.runtime;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.RunStats;

/** A started graph as the engine serves it: one {@link Execution}, or a {@link CheckpointedRun}'s attempts. */
interface GraphRun {
    void await();

    boolean await(long timeout, TimeUnit unit);

    boolean isDone();

    boolean isStopped();

    void cancel();

    RunStats stats();
}
