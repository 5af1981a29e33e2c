package org.fastflowj.core.runtime.control;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.NodeThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What all node threads of one run share: the cancel flag and the first failure. The first node to fail
 * wins; every other thread is unparked and interrupted, sees {@link #cancelled} at its next check and
 * unwinds. Nothing here is touched per item except the plain read of {@code cancelled} in a source loop.
 */
public final class RunControl {
    /**
     * Made on first use: a run that logs nothing never starts the logging backend, which costs a fresh
     * JVM about 45 ms.
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(RunControl.class);
    }

    public volatile boolean cancelled;
    private final AtomicReference<NodeFailedException> failure = new AtomicReference<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private volatile ChannelEnd[] runners = new ChannelEnd[0];
    private volatile long cancelledAtNanos;
    public final RunHooks hooks;
    /** The run's checkpoints, or null without them. */
    public final CheckpointCoordinator checkpoints;

    private final AtomicInteger liveRunners = new AtomicInteger();

    public RunControl(RunHooks hooks) {
        this(hooks, null);
    }

    public RunControl(RunHooks hooks, CheckpointCoordinator checkpoints) {
        this.hooks = hooks;
        this.checkpoints = checkpoints;
    }

    public void runners(ChannelEnd[] all) {
        this.runners = all;
        liveRunners.set(all.length);
    }

    /** A node thread is about to end; the last one runs the run's end hook (so waitEnd waits for it). */
    public void runnerEnded() {
        if (liveRunners.decrementAndGet() == 0) {
            try {
                hooks.ended();
            } catch (Throwable t) {
                Log.LOG.error("the run's end hook failed", t);
            }
        }
    }

    public void checkCancelled() {
        if (cancelled) {
            throw Cancelled.INSTANCE;
        }
    }

    /** Records the first failure and cancels the run; later failures are consequences and are dropped. */
    public void fail(String nodeName, String phase, Throwable cause) {
        if (failure.compareAndSet(null, new NodeFailedException(nodeName, phase, cause))) {
            cancel();
            try {
                hooks.failed(failure.get());
            } catch (Throwable t) {
                Log.LOG.error("the run's failure hook failed", t);
            }
        }
    }

    public void cancel() {
        if (cancelled) {
            return;
        }
        cancelledAtNanos = System.nanoTime();
        cancelled = true;
        Thread self = Thread.currentThread();
        for (ChannelEnd r : runners) {
            NodeThreads.Run run = r.threadRun;
            if (run != null && run.thread() != self) {
                // Interrupt: a node blocked in user code (sleep, I/O) must notice too.
                run.interrupt();
            }
        }
    }

    public NodeFailedException failure() {
        return failure.get();
    }

    public long cancelledAtNanos() {
        return cancelledAtNanos;
    }

    /** Logs {@code message} once per {@code key} in this run. */
    void warnOnce(String key, String message) {
        if (warned.add(key)) {
            Log.LOG.warn(message);
        }
    }
}
