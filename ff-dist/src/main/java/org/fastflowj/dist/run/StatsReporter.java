package org.fastflowj.dist.run;

import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.metrics.LivePage;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.StatsLine;

/**
 * A group's reports to the launcher ({@link DFF#REPORT_OPTION}): a {@link StatsLine#PROGRESS} line every
 * second from a daemon thread, and the {@link StatsLine#FINAL} line from the run's end hook, which runs
 * before {@code waitEnd} returns, so the line is out before the program can exit.
 *
 * <p>Threading: {@link #started} on the thread that starts the group, {@link #ended} on the last node
 * thread. The reports read {@link Execution#stats()} snapshots: nothing is added to the items' path.
 */
final class StatsReporter {
    private static final long PERIOD_NS = TimeUnit.SECONDS.toNanos(1);
    /** The end hook may run before {@code Executor.start} returned the execution (a tiny graph). */
    private static final long AWAIT_START_MS = 2_000;

    private final PrintStream target;
    private final long startNs = System.nanoTime();
    private final CompletableFuture<Execution> execution = new CompletableFuture<>();
    /** Set once by the end hook; the progress thread stops at its next wake-up. */
    private volatile boolean ended;

    private final String graphJson;

    /** {@code whole}: the program's graph, every group's part, reported once for the launcher's live page. */
    StatsReporter(PrintStream target, Graph whole) {
        this.target = target;
        this.graphJson = LivePage.graphJson(whole);
    }

    /** Starts the progress reports of {@code started}, after the graph's line. */
    void started(Execution started) {
        ControlLine.emit(target, StatsLine.graphLine(graphJson));
        execution.complete(started);
        Thread progress = new Thread(this::reportProgress, "ff-stats-reporter");
        progress.setDaemon(true);
        progress.start();
    }

    /** The run ended: prints the final statistics. */
    void ended() {
        ended = true;
        try {
            report(true, execution.get(AWAIT_START_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Never started: there are no statistics to give.
        }
    }

    private void reportProgress() {
        Execution run = execution.join();
        while (!ended) {
            report(false, run);
            LockSupport.parkNanos(PERIOD_NS);
        }
    }

    private void report(boolean last, Execution run) {
        long uptimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        ControlLine.emit(target, StatsLine.format(last, uptimeMs, run.stats()));
    }
}
