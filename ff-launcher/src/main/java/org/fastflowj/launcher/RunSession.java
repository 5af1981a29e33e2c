package org.fastflowj.launcher;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of every group: start them all, copy their output, and end the run the first time something
 * goes wrong, taking every other group down with it.
 *
 * <pre>
 *   start all ──▶ wait for an event ──▶ every group exited 0 ─────────────────▶ exit 0
 *                      │  a group exited ≠ 0 / start failed ─┐
 *                      │  --timeout reached ─────────────────┼─▶ SIGTERM all ─▶ grace ─▶ SIGKILL rest
 *                      │  SIGINT/SIGTERM to the launcher ────┘     ─▶ report the first failure ─▶ exit ≠ 0
 * </pre>
 *
 * <p>Threading: {@link #run()} runs on the caller's thread and owns every decision. Exits arrive from
 * the processes' completion threads, and a stop request from the JVM's shutdown-hook thread, all as
 * events on one queue; the hook then waits until the run has stopped every group.
 */
final class RunSession {
    static final int EXIT_GROUP_FAILED = 1;
    static final int EXIT_TIMEOUT = 124;
    static final int EXIT_INTERRUPTED = 130;

    /** How ff-dist names the origin of a failure in the other groups' errors. */
    private static final Pattern ORIGIN = Pattern.compile("group (\\S+) failed: ");

    private sealed interface Event permits Exited, StartFailed, StopRequested {}

    private record Exited(GroupProcess group, int code) implements Event {}

    private record StartFailed(GroupLaunch launch, IOException cause) implements Event {}

    private record StopRequested() implements Event {}

    private final List<GroupLaunch> launches;
    private final Duration timeout;
    private final Duration grace;
    private final Path logDir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final StatusBoard status;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Map<String, GroupProcess> running = new LinkedHashMap<>();
    private final List<GroupOutput> outputs = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    /**
     * @param timeout the longest the whole run may take, or null for no limit
     * @param grace how long a group has to stop after SIGTERM before SIGKILL
     * @param logDir the folder for one log file per group, or null
     */
    RunSession(
            List<GroupLaunch> launches,
            Duration timeout,
            Duration grace,
            Path logDir,
            PrintWriter out,
            PrintWriter err,
            StatusBoard status) {
        this.launches = List.copyOf(launches);
        this.timeout = timeout;
        this.grace = grace;
        this.logDir = logDir;
        this.out = out;
        this.err = err;
        this.status = status;
    }

    /** Runs every group to the end; returns the launcher's exit code. */
    int run() throws InterruptedException {
        Thread hook = new Thread(this::stopFromSignal, "ff-launcher-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            startAll();
            return awaitEnd();
        } finally {
            outputs.forEach(GroupOutput::close);
            status.finish();
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already: the hook is running, and waited for this run.
            }
        }
    }

    private void startAll() {
        long startNs = System.nanoTime();
        for (GroupLaunch launch : launches) {
            status.update(launch.group(), "starting");
            try {
                GroupOutput output = new GroupOutput(
                        launch.group(),
                        out,
                        err,
                        status,
                        logDir == null ? null : logDir.resolve(launch.group() + ".log"),
                        line -> onLine(launch.group(), line, startNs));
                outputs.add(output);
                GroupProcess process = GroupProcess.start(launch, output);
                running.put(launch.group(), process);
                process.exit().thenAccept(code -> events.add(new Exited(process, code)));
                status.update(launch.group(), "running");
            } catch (IOException e) {
                events.add(new StartFailed(launch, e));
                break;
            }
        }
        long startedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        StringBuilder line = new StringBuilder("ff-launcher: started " + running.size() + " of " + launches.size()
                + " groups in " + startedMs + " ms:");
        running.values().forEach(p -> line.append(' ')
                .append(p.launch().group())
                .append(" (")
                .append(p.launch().where())
                .append(", pid ")
                .append(p.pid())
                .append(')'));
        say(line.toString());
    }

    private void onLine(String group, String line, long startNs) {
        if (line.startsWith(ConnectedMarker.PREFIX)) {
            status.update(group, "connected");
            if (status.allConnected()) {
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                say("ff-launcher: all groups connected " + ms + " ms after the first start");
            }
        }
    }

    private int awaitEnd() throws InterruptedException {
        long deadlineNs = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        int left = running.size();
        while (true) {
            long waitNs = deadlineNs - System.nanoTime();
            Event event = timeout == null ? events.take() : events.poll(waitNs, TimeUnit.NANOSECONDS);
            if (event == null) {
                say("ff-launcher: timeout: the run took longer than " + Durations.format(timeout)
                        + "; stopping every group");
                stopAll();
                return EXIT_TIMEOUT;
            }
            if (event instanceof StopRequested) {
                say("ff-launcher: interrupted; stopping every group");
                stopAll();
                return EXIT_INTERRUPTED;
            }
            if (event instanceof StartFailed failed) {
                say("ff-launcher: group " + failed.launch().group() + " failed first: it could not start: "
                        + failed.cause().getMessage());
                stopAll();
                return EXIT_GROUP_FAILED;
            }
            Exited exited = (Exited) event;
            String group = exited.group().launch().group();
            status.update(group, "ended " + exited.code());
            if (exited.code() != 0) {
                reportFailure(exited);
                return EXIT_GROUP_FAILED;
            }
            if (--left == 0 && running.size() == launches.size()) {
                say("ff-launcher: every group exited 0");
                return 0;
            }
        }
    }

    private void say(String line) {
        status.emit(err, line);
    }

    /**
     * Names the group that failed first. ff-dist tells every peer of a failure, and a peer may exit
     * before the group that failed: the first group to exit then names the origin in its last lines
     * ({@code group B failed: ...}), and that group is the one reported.
     */
    private void reportFailure(Exited exited) throws InterruptedException {
        GroupLaunch first = exited.group().launch();
        List<String> firstLines = outputs.get(launches.indexOf(first)).lastLines();
        GroupLaunch origin = firstLines.stream()
                .map(ORIGIN::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .flatMap(name -> launches.stream().filter(l -> l.group().equals(name)))
                .findFirst()
                .orElse(first);
        String how = ExitStatus.describe(exited.code(), first.remote());
        if (origin == first) {
            say("ff-launcher: group " + first.group() + " failed first: " + how);
        } else {
            say("ff-launcher: group " + origin.group() + " failed first (group " + first.group()
                    + ", the first to exit, says so with " + how + ")");
        }
        say("ff-launcher: stopping the other groups");
        stopAll();
        List<String> last = outputs.get(launches.indexOf(origin)).lastLines();
        say("ff-launcher: the last lines of group " + origin.group() + (last.isEmpty() ? ": (none)" : ":"));
        last.forEach(l -> say("  [" + origin.group() + "] " + l));
    }

    /** SIGTERM to every live group, SIGKILL to those still alive after the grace period. */
    private void stopAll() throws InterruptedException {
        List<GroupProcess> alive =
                running.values().stream().filter(p -> !p.exit().isDone()).toList();
        alive.forEach(p -> {
            status.update(p.launch().group(), "stopping");
            p.terminate();
        });
        long deadlineNs = System.nanoTime() + grace.toNanos();
        for (GroupProcess p : alive) {
            if (!await(p, deadlineNs - System.nanoTime())) {
                say("ff-launcher: group " + p.launch().group() + " did not stop within " + Durations.format(grace)
                        + " of SIGTERM; sending SIGKILL");
                p.kill();
            }
        }
        for (GroupProcess p : alive) {
            // A SIGKILLed process ends at once; the bound only guards against an unreachable ssh peer.
            if (await(p, TimeUnit.SECONDS.toNanos(10))) {
                int code = p.exit().join();
                status.update(p.launch().group(), "ended " + code);
                say("ff-launcher: stopped group " + p.launch().group() + ": "
                        + ExitStatus.describe(code, p.launch().remote()));
            } else {
                say("ff-launcher: group " + p.launch().group() + " (pid " + p.pid() + ") is still alive after SIGKILL");
            }
        }
    }

    private static boolean await(GroupProcess p, long timeoutNs) throws InterruptedException {
        try {
            p.exit().get(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true;
        }
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
