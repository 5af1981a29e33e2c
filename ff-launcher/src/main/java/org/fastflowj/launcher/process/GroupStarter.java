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
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.StatsLine;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.report.FailureReport;
import org.fastflowj.launcher.report.GroupReports;
import org.fastflowj.launcher.report.StatusBoard;

/**
 * The start of a run: every group's output sink and process, in config order, the {@code started} line
 * with the spawn time and every pid, and the {@code all groups connected} line once each group has
 * printed {@link ConnectedMarker}. {@link #restartAll} starts every group again, as fresh processes of the
 * same launches told to resume from the last checkpoint; the news of an earlier attempt's processes is
 * then ignored, and their log files go on.
 *
 * <p>Threading: {@link #startAll} and {@link #restartAll} run on the run's thread; the connected check
 * runs on the pump threads and only touches the (synchronized) {@link StatusBoard}.
 */
final class GroupStarter implements FailureReport.GroupLines {
    /** A group whose process could not be started, and why. */
    record StartFailure(GroupLaunch launch, IOException cause) {}

    /** The latest attempt's launches: a restart may move groups to other hosts. */
    private List<GroupLaunch> launches;

    private final Path logDir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final StatusBoard status;
    private final String secret;
    private final Duration grace;
    private final boolean fullTraces;
    private final GroupReports reports;
    private final Map<GroupLaunch, GroupProcess> running = new LinkedHashMap<>();
    /** By group name: a group's launch changes when it moves, its output and log file go on. */
    private final Map<String, GroupOutput> outputs = new LinkedHashMap<>();

    private final Map<String, Path> logFiles = new LinkedHashMap<>();
    /** Every attempt's: a restarted group that fails as before points back at the first account. */
    private final ShownCauses shownCauses = new ShownCauses();
    /** 0 for the first start, then one more per restart; the pumps read it to drop an old attempt's news. */
    private volatile int attempt;
    /** Where each attempt's checkpoints start; null without checkpoints in the config. */
    private CheckpointPositions checkpoints;
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
        return start(onStarted, null);
    }

    /**
     * Starts every group again after every process of the last attempt has exited, as {@code next} says
     * (the same launches, or some moved to other hosts): fresh processes told the checkpoint every group
     * resumes from, whose log files go on with a line saying {@code why}. As {@link #startAll} otherwise.
     */
    StartFailure restartAll(List<GroupLaunch> next, Consumer<GroupProcess> onStarted, String why) {
        closeOutputs();
        launches = List.copyOf(next);
        outputs.clear();
        running.clear();
        attempt++;
        return start(onStarted, why);
    }

    /** Before {@link #startAll}: every attempt's groups are told where their checkpoints start. */
    void checkpoints(CheckpointPositions positions) {
        this.checkpoints = positions;
    }

    /** @param restartWhy null for the first start, else what the log files say of the new attempt */
    private StartFailure start(Consumer<GroupProcess> onStarted, String restartWhy) {
        long startNs = System.nanoTime();
        int thisAttempt = attempt;
        StartFailure failure = null;
        CheckpointStart checkpointStart = null;
        if (checkpoints != null) {
            try {
                checkpointStart = checkpoints.next(restartWhy != null);
            } catch (IOException e) {
                return new StartFailure(
                        launches.get(0),
                        new IOException("cannot read the checkpoints in " + checkpoints.describeStore() + ": " + e, e));
            }
            if (restartWhy != null) {
                status.emit(err, "ff-launcher: " + CheckpointPositions.describe(checkpointStart));
                restartWhy = restartWhy + "; " + CheckpointPositions.describe(checkpointStart);
            }
        }
        for (GroupLaunch launch : launches) {
            status.update(launch.group(), "starting");
            try {
                String controlKey = ControlLine.newKey();
                GroupOutput output = new GroupOutput(
                        launch.group(),
                        out,
                        err,
                        status,
                        logFile(launch),
                        new ControlLine.Verifier(controlKey),
                        news -> {
                            if (attempt == thisAttempt) {
                                onNews(launch.group(), news, startNs);
                            }
                        },
                        fullTraces,
                        shownCauses);
                outputs.put(launch.group(), output);
                if (restartWhy != null) {
                    output.logOnly("ff-launcher: attempt " + (thisAttempt + 1) + ": " + restartWhy);
                }
                GroupProcess process = GroupProcess.start(launch, output, secret, controlKey, grace, checkpointStart);
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

    /** The group's log file, made empty for the run at its first start, or null without {@code --log-dir}. */
    private Path logFile(GroupLaunch launch) throws IOException {
        if (logDir == null) {
            return null;
        }
        Path file = logFiles.get(launch.group());
        if (file == null) {
            file = LogFiles.create(logDir, launch.group());
            logFiles.put(launch.group(), file);
        }
        return file;
    }

    /** Before {@link #startAll}: where the groups' news of losable and lost groups goes. */
    void onRecoveryNews(RecoveryNews news) {
        recoveryNews = news;
    }

    /** 0 for the first start, then one more per {@link #restartAll}. */
    int attempt() {
        return attempt;
    }

    /** Every group's launch in the latest attempt, in config order. */
    List<GroupLaunch> launches() {
        return launches;
    }

    /** The groups whose process started in the latest attempt, in config order. */
    Collection<GroupProcess> running() {
        return running.values();
    }

    @Override
    public List<String> lastLines(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch.group());
        return output == null ? List.of() : output.lastLines();
    }

    @Override
    public FailureReport.Failure failure(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch.group());
        return output == null ? new FailureReport.Failure(null, null, 0) : output.failure();
    }

    @Override
    public String announcedOrigin(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch.group());
        return output == null ? null : output.announcedOrigin();
    }

    @Override
    public List<String> failureLines(GroupLaunch launch) {
        GroupOutput output = outputs.get(launch.group());
        return output == null ? List.of() : output.failureLines();
    }

    /** Closes every group's log file of the latest attempt. */
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
