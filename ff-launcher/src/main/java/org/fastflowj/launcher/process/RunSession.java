package org.fastflowj.launcher.process;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.fastflowj.launcher.Durations;
import org.fastflowj.launcher.ExitStatus;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.report.FailureReport;
import org.fastflowj.launcher.report.GroupReports;
import org.fastflowj.launcher.report.StatusBoard;

/**
 * One run of every group: start them all, copy their output, and end the run the first time something
 * goes wrong, taking every other group down with it.
 *
 * <pre>
 *   start all ──▶ wait for an event ──▶ every group exited 0 ─────────────────▶ exit 0
 *                      │  a group exited ≠ 0 / start failed ─┐
 *                      │  an output cannot be written ───────┤
 *                      │  --timeout reached ─────────────────┼─▶ SIGTERM all ─▶ grace ─▶ SIGKILL rest
 *                      │  SIGINT/SIGTERM to the launcher ────┘     ─▶ report the first failure ─▶ exit ≠ 0
 * </pre>
 *
 * <p>With {@code checkpoints} in the config, a failure that would end the run restarts it instead, as long
 * as the {@link RestartPolicy} allows: SIGKILL to every group, the policy's delay, and every group started
 * again, resuming from the last completed checkpoint ({@link Restart}).
 *
 * <p>The run is in three parts: {@link GroupStarter} starts the groups, this class watches them and
 * decides, {@link GroupStopper} stops them, and {@link FailureReport} says what failed.
 *
 * <p>Threading: {@link #run()} runs on the caller's thread and owns every decision. Exits arrive from
 * the processes' completion threads, and a stop request from the JVM's shutdown-hook thread, all as
 * events on one queue; the hook then waits until the run has stopped every group.
 */
public final class RunSession {
    public static final int EXIT_GROUP_FAILED = 1;
    /** An output of the run cannot be written (stdout, stderr, a log file): as {@code grep}'s 2. */
    public static final int EXIT_OUTPUT_FAILED = 2;

    public static final int EXIT_TIMEOUT = 124;
    public static final int EXIT_INTERRUPTED = 130;

    private sealed interface Event permits Exited, StartFailed, StopRequested, Lost, OutputFailed {}

    private record OutputFailed(String why) implements Event {}

    /** @param attempt the attempt of the groups that told it: news of an earlier one is stale */
    private record Lost(String group, String toldBy, int attempt) implements Event {}

    private record Exited(GroupProcess group, int code) implements Event {}

    private record StartFailed(GroupStarter.StartFailure failure) implements Event {}

    private record StopRequested() implements Event {}

    private final List<GroupLaunch> launches;
    private final Duration timeout;
    private final Duration grace;
    private final Path logDir;
    private final PrintWriter err;
    private final StatusBoard status;
    private final GroupStarter starter;
    private final GroupStopper stopper;
    private final FailureReport report;
    private final Restart restart;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Groups the run may lose (a recoverable farm's worker groups), as their peers named them. */
    private final Set<String> losable = ConcurrentHashMap.newKeySet();
    /** For each group that named some, the peers it may lose: the only groups it may say it lost. */
    private final Map<String, Set<String>> losableBy = new ConcurrentHashMap<>();
    /** Groups lost; the run thread's own. */
    private final Set<String> lost = new LinkedHashSet<>();

    /**
     * @param timeout the longest the whole run may take, or null for no limit
     * @param grace how long a group has to stop after SIGTERM before SIGKILL
     * @param logDir the folder for one log file per group, or null
     * @param secret the run's secret, handed to every group ({@link RunSecret}), or null for none
     * @param fullTraces true to show every line of the groups' stack traces
     * @param reports where the groups' statistics reports go
     */
    public RunSession(
            List<GroupLaunch> launches,
            Duration timeout,
            Duration grace,
            Path logDir,
            PrintWriter out,
            PrintWriter err,
            StatusBoard status,
            String secret,
            boolean fullTraces,
            GroupReports reports) {
        this(launches, timeout, grace, logDir, out, err, status, secret, fullTraces, reports, RestartPolicy.never());
    }

    /** @param restarts whether and how often a failed run is restarted from the last checkpoint */
    public RunSession(
            List<GroupLaunch> launches,
            Duration timeout,
            Duration grace,
            Path logDir,
            PrintWriter out,
            PrintWriter err,
            StatusBoard status,
            String secret,
            boolean fullTraces,
            GroupReports reports,
            RestartPolicy restarts) {
        this(
                launches,
                timeout,
                grace,
                logDir,
                out,
                err,
                status,
                secret,
                fullTraces,
                reports,
                restarts,
                HostMoves.none());
    }

    /** @param moves before each restart, moves the groups of a lost host to a spare one */
    public RunSession(
            List<GroupLaunch> launches,
            Duration timeout,
            Duration grace,
            Path logDir,
            PrintWriter out,
            PrintWriter err,
            StatusBoard status,
            String secret,
            boolean fullTraces,
            GroupReports reports,
            RestartPolicy restarts,
            HostMoves moves) {
        this.launches = List.copyOf(launches);
        this.timeout = timeout;
        this.grace = grace;
        this.logDir = logDir;
        this.err = err;
        this.status = status;
        this.starter = new GroupStarter(launches, logDir, out, err, status, secret, grace, fullTraces, reports);
        this.stopper = new GroupStopper(grace, err, status);
        this.report = new FailureReport(starter, launches, err, status);
        this.restart = new Restart(restarts, starter, stopper, status, err, this::watch, moves);
        restarts.checkpoints()
                .ifPresent(c -> starter.checkpoints(CheckpointPositions.of(
                        c, launches.stream().map(GroupLaunch::group).toList())));
        status.onOutputFailure(why -> events.add(new OutputFailed(why)));
        starter.onRecoveryNews(new GroupStarter.RecoveryNews() {
            @Override
            public void losable(List<String> groups, String toldBy) {
                Set<String> known =
                        groups.stream().filter(RunSession.this::isGroup).collect(Collectors.toSet());
                losableBy
                        .computeIfAbsent(toldBy, g -> ConcurrentHashMap.newKeySet())
                        .addAll(known);
                losable.addAll(known);
            }

            @Override
            public void lost(String group, String toldBy) {
                if (losableBy.getOrDefault(toldBy, Set.of()).contains(group)) {
                    events.add(new Lost(group, toldBy, restart.attempt()));
                } else {
                    say("ff-launcher: group " + toldBy + " says it lost group " + group
                            + ", which is not among the peers it may lose: ignored");
                }
            }
        });
    }

    /** Runs every group to the end; returns the launcher's exit code. */
    public int run() throws InterruptedException {
        Thread hook = new Thread(this::stopFromSignal, "ff-launcher-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            GroupStarter.StartFailure failure = starter.startAll(this::watch);
            if (failure != null) {
                events.add(new StartFailed(failure));
            }
            return awaitEnd();
        } finally {
            starter.closeOutputs();
            status.finish();
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already: the hook is running, and waited for this run.
            }
        }
    }

    private void watch(GroupProcess process) {
        process.exit().thenAccept(code -> events.add(new Exited(process, code)));
    }

    private int awaitEnd() throws InterruptedException {
        long deadlineNs = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        int left = starter.running().size();
        while (true) {
            Event event = next(deadlineNs);
            Integer stop = stopCode(event);
            if (stop != null) {
                return stop;
            }
            if (event instanceof StartFailed failed) {
                String group = failed.failure().launch().group();
                String why = failed.failure().cause().getMessage();
                if (restart.allowedAfterFailure()) {
                    Integer ended = restartEveryGroup("group " + group + " could not start: " + why, deadlineNs);
                    if (ended != null) {
                        return ended;
                    }
                    left = starter.running().size();
                    continue;
                }
                say("ff-launcher: group " + group + " failed first: it could not start: " + why);
                restart.sayNoneLeft();
                stopper.stopAll(starter.running());
                return EXIT_GROUP_FAILED;
            }
            if (event instanceof Lost news) {
                if (news.attempt() == restart.attempt()) {
                    loseGroup(news.group(), "group " + news.toldBy() + " lost it");
                }
                continue;
            }
            Exited exited = (Exited) event;
            if (!starter.running().contains(exited.group())) {
                continue; // a process of an attempt before the restart
            }
            String group = exited.group().launch().group();
            if (exited.code() != 0 && (losable.contains(group) || lost.contains(group))) {
                loseGroup(
                        group,
                        ExitStatus.describe(
                                exited.code(), exited.group().launch().remote()));
                status.update(group, "lost");
                if (--left == 0) {
                    return endWithLosses();
                }
                continue;
            }
            status.update(group, "ended " + exited.code());
            if (exited.code() == 0 && !status.live()) {
                // a failure has its own report; a group that ended well says how long it ran and how fast
                say("ff-launcher: group " + group + ": " + status.describe(group));
            }
            if (exited.code() != 0) {
                if (restart.allowedAfterFailure()) {
                    Integer ended = restartEveryGroup(
                            report.describeFailure(exited.group().launch(), exited.code()), deadlineNs);
                    if (ended != null) {
                        return ended;
                    }
                    left = starter.running().size();
                    continue;
                }
                GroupLaunch origin = report.sayOrigin(exited.group().launch(), exited.code());
                restart.sayNoneLeft();
                say("ff-launcher: stopping the other groups");
                stopper.stopAll(starter.running());
                report.sayLastLines(origin);
                report.sayCause(origin, logDir);
                return EXIT_GROUP_FAILED;
            }
            if (--left == 0 && starter.running().size() == launches.size()) {
                return endWithLosses();
            }
        }
    }

    /** The next event, or null once {@code deadlineNs} is reached. */
    private Event next(long deadlineNs) throws InterruptedException {
        return timeout == null ? events.take() : events.poll(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * The exit code if {@code event} (null: the timeout) ends the run whatever the groups do, after
     * stopping every group; else null.
     */
    private Integer stopCode(Event event) throws InterruptedException {
        if (event == null) {
            say("ff-launcher: timeout: the run took longer than " + Durations.format(timeout)
                    + "; stopping every group");
            stopper.stopAll(starter.running());
            return EXIT_TIMEOUT;
        }
        if (event instanceof StopRequested) {
            say("ff-launcher: interrupted; stopping every group");
            stopper.stopAll(starter.running());
            return EXIT_INTERRUPTED;
        }
        if (event instanceof OutputFailed failed) {
            say("ff-launcher: " + failed.why() + "; stopping every group");
            stopper.stopAll(starter.running());
            return EXIT_OUTPUT_FAILED;
        }
        return null;
    }

    /**
     * Restarts every group after {@code failure}; null once they are started again, else the exit code of a
     * run that ended meanwhile (a stop, the timeout, an output failure, a group that outlived SIGKILL).
     */
    private Integer restartEveryGroup(String failure, long deadlineNs) throws InterruptedException {
        Integer ended = restart.run(failure, delayNs -> {
            // Meanwhile only a stop, the timeout or an output failure counts: the old groups' exits are stale.
            long delayEndNs = System.nanoTime() + delayNs;
            for (long now = System.nanoTime(); now < delayEndNs; now = System.nanoTime()) {
                long untilNs = Math.min(delayEndNs, deadlineNs);
                Event event = events.poll(untilNs - now, TimeUnit.NANOSECONDS);
                Integer stop = event != null ? stopCode(event) : untilNs == deadlineNs ? stopCode(null) : null;
                if (stop != null) {
                    return stop;
                }
            }
            return null;
        });
        if (ended == null) {
            lost.clear();
            if (restart.startFailure() != null) {
                events.add(new StartFailed(restart.startFailure()));
            }
        }
        return ended;
    }

    /**
     * A recoverable farm's worker group is gone (it exited, or a peer stopped hearing it): the run goes on.
     * A group still running (frozen, say) is killed: its peers have closed their links to it already.
     */
    private void loseGroup(String group, String why) {
        if (!lost.add(group)) {
            return;
        }
        status.update(group, "lost");
        say("ff-launcher: group " + group + " is lost (" + why + "); the run goes on without it");
        for (GroupProcess p : starter.running()) {
            if (p.launch().group().equals(group) && !p.exit().isDone()) {
                p.kill();
            }
        }
    }

    private int endWithLosses() {
        String outputFailure = status.outputFailure();
        if (outputFailure != null) {
            // every group ended before the run read the failure's event: the run fails all the same
            say("ff-launcher: " + outputFailure);
            return EXIT_OUTPUT_FAILED;
        }
        if (lost.isEmpty()) {
            say("ff-launcher: every group exited 0");
        } else {
            say("ff-launcher: every group exited 0 except " + String.join(", ", lost)
                    + ", lost (the run went on without it)");
        }
        return 0;
    }

    private boolean isGroup(String name) {
        return launches.stream().anyMatch(l -> l.group().equals(name));
    }

    private void say(String line) {
        status.emit(err, line);
    }

    /** The shutdown hook: ask the run to stop every group, and keep the JVM alive until it has. */
    private void stopFromSignal() {
        events.add(new StopRequested());
        try {
            stopped.await(grace.toMillis() + 15_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
