package org.fastflowj.launcher.process;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.StatsLine;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.report.FailureReport;
import org.fastflowj.launcher.report.GroupReports;
import org.fastflowj.launcher.report.StatusBoard;

/**
 * The start of a run: every group's output sink and process, in config order, the {@code started} line
 * with the spawn time and every pid, and the {@code all groups connected} line once each group has
 * printed {@link ConnectedMarker}.
 *
 * <p>Threading: {@link #startAll} runs on the run's thread; the connected check runs on the pump
 * threads and only touches the (synchronized) {@link StatusBoard}.
 */
final class GroupStarter implements FailureReport.GroupLines {
    /** A group whose process could not be started, and why. */
    record StartFailure(GroupLaunch launch, IOException cause) {}

    private final List<GroupLaunch> launches;
    private final Path logDir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final StatusBoard status;
    private final String secret;
    private final Duration grace;
    private final boolean fullTraces;
    private final GroupReports reports;
    private final Map<GroupLaunch, GroupProcess> running = new LinkedHashMap<>();
    private final Map<GroupLaunch, GroupOutput> outputs = new LinkedHashMap<>();
    /** Told of the groups the run may lose, and of each one lost ({@link RecoveryMarkers}). */
    private volatile RecoveryNews recoveryNews = RecoveryNews.NONE;

    /**
     * What the groups say about groups the run may lose; called on the output pump threads. A group names
     * the peers it may lose, and may then tell that it lost one of those, never another group.
     */
    interface RecoveryNews {
        RecoveryNews NONE = new RecoveryNews() {
            @Override
            public void losable(List<String> groups, String toldBy) {}

            @Override
            public void lost(String group, String toldBy) {}
        };

        void losable(List<String> groups, String toldBy);

        void lost(String group, String toldBy);
    }

    /**
     * @param logDir the folder for one log file per group, or null
     * @param secret the run's secret for every group ({@link RunSecret}), or null when the config has one
     * @param grace how long a group has between SIGTERM and SIGKILL
     * @param fullTraces true to show every line of the groups' stack traces
     * @param reports where the groups' statistics reports go
     */
    GroupStarter(
            List<GroupLaunch> launches,
            Path logDir,
            PrintWriter out,
            PrintWriter err,
            StatusBoard status,
            String secret,
            Duration grace,
            boolean fullTraces,
            GroupReports reports) {
        this.fullTraces = fullTraces;
        this.reports = reports;
        this.launches = List.copyOf(launches);
        this.logDir = logDir;
        this.out = out;
        this.err = err;
        this.status = status;
        this.secret = secret;
        this.grace = grace;
    }

    /**
     * Starts every group, stopping at the first that cannot start; {@code onStarted} sees each started
     * group before the next one starts. Returns that first failure, or null when every group started.
     */
    StartFailure startAll(Consumer<GroupProcess> onStarted) {
        long startNs = System.nanoTime();
        StartFailure failure = null;
        for (GroupLaunch launch : launches) {
            status.update(launch.group(), "starting");
            try {
                String controlKey = ControlLine.newKey();
                GroupOutput output = new GroupOutput(
                        launch.group(),
                        out,
                        err,
                        status,
                        logDir == null ? null : LogFiles.create(logDir, launch.group()),
                        new ControlLine.Verifier(controlKey),
                        news -> onNews(launch.group(), news, startNs),
                        fullTraces);
                outputs.put(launch, output);
                GroupProcess process = GroupProcess.start(launch, output, secret, controlKey, grace);
                running.put(launch, process);
                onStarted.accept(process);
                status.update(launch.group(), "running");
            } catch (IOException e) {
                failure = new StartFailure(launch, e);
                break;
            }
        }
        sayStarted(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        return failure;
    }

    /** Before {@link #startAll}: where the groups' news of losable and lost groups goes. */
    void onRecoveryNews(RecoveryNews news) {
        recoveryNews = news;
    }

    /** The groups whose process started, in config order. */
    Collection<GroupProcess> running() {
        return running.values();
    }

    @Override
    public List<String> lastLines(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch);
        return output == null ? List.of() : output.lastLines();
    }

    @Override
    public FailureReport.Failure failure(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch);
        return output == null ? new FailureReport.Failure(null, null, 0) : output.failure();
    }

    @Override
    public String announcedOrigin(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch);
        return output == null ? null : output.announcedOrigin();
    }

    @Override
    public List<String> failureLines(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch);
        return output == null ? List.of() : output.failureLines();
    }

    /** Closes every group's log file. */
    void closeOutputs() {
        outputs.values().forEach(GroupOutput::close);
    }

    private void sayStarted(long startedMs) {
        StringBuilder line = new StringBuilder("ff-launcher: started " + running.size() + " of " + launches.size()
                + " groups in " + startedMs + " ms:");
        running.values().forEach(p -> line.append(' ')
                .append(p.launch().group())
                .append(" (")
                .append(p.launch().where())
                .append(", pid ")
                .append(p.pid())
                .append(')'));
        status.emit(err, line.toString());
    }

    /** A sealed line's message from {@code group}: it speaks only for itself (see {@link RecoveryNews}). */
    private void onNews(String group, String line, long startNs) {
        if (StatsLine.isReport(line)) {
            reports.accept(group, line);
        } else if (line.startsWith(RecoveryMarkers.LOSABLE)) {
            recoveryNews.losable(RecoveryMarkers.losable(line), group);
        } else if (line.startsWith(RecoveryMarkers.LOST)) {
            recoveryNews.lost(RecoveryMarkers.lost(line), group);
        } else if (line.startsWith(ConnectedMarker.PREFIX)) {
            status.update(group, "connected");
            if (status.allConnected()) {
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                status.emit(err, "ff-launcher: all groups connected " + ms + " ms after the first start");
            }
        }
    }
}
