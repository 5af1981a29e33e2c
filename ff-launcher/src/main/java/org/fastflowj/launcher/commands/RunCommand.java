package org.fastflowj.launcher.commands;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.fastflowj.dist.CheckedOutput;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Durations;
import org.fastflowj.launcher.hosts.CdsArchive;
import org.fastflowj.launcher.hosts.GroupCheckCache;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.HostProbe;
import org.fastflowj.launcher.hosts.JavaCommand;
import org.fastflowj.launcher.hosts.LauncherCache;
import org.fastflowj.launcher.hosts.NamespaceHosts;
import org.fastflowj.launcher.hosts.RemoteOptions;
import org.fastflowj.launcher.hosts.Shipper;
import org.fastflowj.launcher.hosts.SlurmAllocation;
import org.fastflowj.launcher.process.HostMoves;
import org.fastflowj.launcher.process.RestartPolicy;
import org.fastflowj.launcher.process.RunSecret;
import org.fastflowj.launcher.process.RunSession;
import org.fastflowj.launcher.report.GroupReports;
import org.fastflowj.launcher.report.LauncherMetrics;
import org.fastflowj.launcher.report.StatsTables;
import org.fastflowj.launcher.report.StatusBoard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code run}: one process per group of the config, local, in a network namespace of this machine or
 * through ssh (or srun inside a SLURM allocation), watched until every group has exited 0 or the first one fails.
 *
 * <p>Threading: runs on the main thread; {@link RunSession} documents the threads of a run.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Starts one process per group of the config, appending --DFF_GName=<group> --DFF_Config=<config>"
                    + " to COMMAND, and watches them: every line is printed prefixed with [group]; the first"
                    + " group to fail stops the others, and the launcher exits 0 only if every group exits 0. With"
                    + " checkpoints in the config, a failure restarts every group from the last completed"
                    + " checkpoint instead, as often as checkpoints.restart allows, the groups of a lost host"
                    + " on a spare one of checkpoints.restart.spareHosts."
        })
public final class RunCommand implements Callable<Integer> {
    private final Prefetch prefetch;

    public RunCommand(Prefetch prefetch) {
        this.prefetch = prefetch;
    }

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    RemoteOptions remote;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = Durations.class,
            description = "Stop every group and exit 124 when the run takes longer (30s, 5m, 1h). Default: none.")
    Duration timeout;

    @Option(
            names = "--grace",
            paramLabel = "DURATION",
            converter = Durations.class,
            defaultValue = "5s",
            description =
                    "How long a group has between SIGTERM and SIGKILL when it is stopped (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(
            names = "--log-dir",
            paramLabel = "DIR",
            description = "Also write each group's output, unprefixed, to DIR/<group>.log (DIR is created).")
    Path logDir;

    @Option(names = "--dry-run", description = "Print the exact command of every group and start nothing.")
    boolean dryRun;

    @Option(
            names = "--ship",
            paramLabel = "FILE",
            arity = "1..*",
            description = "Copy these files to every remote host's --remote-dir before starting, each only when"
                    + " its content differs from the copy already there.")
    List<Path> ship = new ArrayList<>();

    @Option(
            names = "--slurm",
            description = "Inside a SLURM allocation (salloc, sbatch): start each group as a one-task srun step,"
                    + " group i on the allocation's node i mod N (the config's hosts are replaced by those"
                    + " nodes' addresses in a copy, app.slurm-<jobid>.json).")
    boolean slurm;

    @Option(
            names = "--full-traces",
            description = "Show every line of the groups' stack traces; by default a trace shows its exception"
                    + " and the first frame of the program's code (the log files of --log-dir keep every line).")
    boolean fullTraces;

    @Option(
            names = "--no-group-check",
            description = "Do not ask the program for its groups before starting them (the check runs COMMAND"
                    + " here with --DFF_PrintGroups; skip it when the program only runs on the remote hosts).")
    boolean noGroupCheck;

    @Option(
            names = "--cds",
            paramLabel = "FILE",
            description = "Share the classes the local java groups load through the CDS archive FILE: the first"
                    + " group writes it at its exit when it is missing or older than the jars, later runs map it"
                    + " and start faster. Needs a command with -jar or a -cp of jars. Default: an archive of"
                    + " the launcher's own, in java.io.tmpdir/fastflowj-<user>, for such a command.")
    Path cds;

    @Option(names = "--no-cds", description = "No CDS archive at all, not even the launcher's own (see --cds).")
    boolean noCds;

    @Option(names = "--no-status", description = "No live status lines, even on a terminal.")
    boolean noStatus;

    @Option(
            names = "--stats",
            description = "At the end, print every group's node table (items in and out, service time, time"
                    + " blocked on input and output, and its network links), from the statistics it reported.")
    boolean stats;

    @Option(
            names = "--ui",
            paramLabel = "PORT",
            description = "Serve a live page of every group on PORT (0: a free one) while the run lasts: the"
                    + " program's graph with each thread's rates, channels' fill and links' traffic, refreshed"
                    + " every second, and /metrics: every group's statistics in the Prometheus text format,"
                    + " each series labelled with the program (--program) and its group.")
    Integer uiPort;

    @Option(
            names = "--program",
            paramLabel = "NAME",
            description = "With --ui: the program label of every /metrics series, which tells this run's series"
                    + " from another program's in one Prometheus (default: the config file's name without"
                    + " .json).")
    String programName;

    @Option(
            names = "--ui-linger",
            paramLabel = "DURATION",
            converter = Durations.class,
            defaultValue = "0s",
            description = "With --ui: keep serving the page and /metrics, with every group's final counts, for"
                    + " DURATION after the run ended (30s, 5m), so that a short run can still be read; the exit"
                    + " code is the run's (default: ${DEFAULT-VALUE}).")
    Duration uiLinger;

    @Parameters(
            arity = "1..*",
            paramLabel = "COMMAND",
            description = "The command that starts the application, after `--` (java -cp app.jar my.Main ARGS).")
    List<String> command;

    private LauncherCache launcherCache;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (uiPort != null && (uiPort < 0 || uiPort > 65_535)) {
            err.println("--ui must be a port number from 0 to 65535 (0: a free port), got " + uiPort);
            err.flush();
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        DffConfig config = common.load(err, prefetch::config);
        if (config == null) {
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        if (logDir != null && Files.exists(logDir) && !Files.isDirectory(logDir)) {
            err.println("--log-dir " + logDir + " is a file; expected a directory (created if missing)");
            err.flush();
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        List<GroupLaunch> launches;
        CdsArchive archive = null;
        LaunchPlanner planner = null;
        if (slurm) {
            try {
                launches = new SlurmPlanner(
                                config,
                                common.absoluteConfig(),
                                command,
                                SlurmAllocation.fromEnvironment(System.getenv()))
                        .plan();
            } catch (IllegalStateException e) {
                // Outside an allocation, or SLURM cannot say what it holds: a usage error, not a crash.
                err.println(e.getMessage());
                err.flush();
                return CommonOptions.EXIT_BAD_CONFIG;
            }
        } else {
            if (cds != null && noCds) {
                err.println("--cds and --no-cds exclude each other: give one");
                err.flush();
                return CommonOptions.EXIT_BAD_CONFIG;
            }
            archive = cds != null
                    ? CdsArchive.of(cds, command)
                    : noCds ? null : CdsArchive.automatic(command, cache(err)).orElse(null);
            if (cds != null) {
                archive.unusable()
                        .ifPresent(
                                why -> err.println("ff-launcher: --cds: the groups run without the archive: " + why));
            }
            planner = new LaunchPlanner(
                    config, common.absoluteConfig(), command, remote, prefetch.localHosts(), grace, archive);
            launches = planner.plan();
        }
        Shipper shipper = new Shipper(remote, ship, launches);
        if (dryRun) {
            shipper.describe(out);
            launches.forEach(l -> out.println(l.group() + ": " + l.commandLine()));
            out.flush();
            return 0;
        }
        if (!slurm) {
            List<String> namespaceProblems = NamespaceHosts.problems(config, NamespaceHosts.Machine.detect());
            if (!namespaceProblems.isEmpty()) {
                namespaceProblems.forEach(err::println);
                err.println("ff-launcher: started no group: a group's network namespace cannot be entered");
                err.flush();
                return CommonOptions.EXIT_BAD_CONFIG;
            }
        }
        if (!noGroupCheck && startsAnyGroupHere(launches) && !programMatchesConfig(config, archive, err)) {
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        if (!shipper.ship(err)) {
            return RunSession.EXIT_GROUP_FAILED;
        }
        if (logDir != null) {
            Files.createDirectories(logDir);
        }
        if (archive != null) {
            archive.deleteIfStale();
        }
        List<String> groups = config.groups().stream().map(GroupConfig::name).toList();
        GroupReports reports = new GroupReports();
        boolean live = !noStatus && System.console() != null && !"dumb".equals(System.getenv("TERM"));
        StatusBoard board = new StatusBoard(groups, live ? out : null, reports);
        LauncherMetrics metrics = null;
        if (uiPort != null) {
            try {
                metrics = LauncherMetrics.serve(uiPort, reports, programLabel(), board::restarts);
            } catch (UncheckedIOException e) {
                board.finish();
                err.println(e.getMessage());
                err.flush();
                return CommonOptions.EXIT_BAD_CONFIG;
            }
            err.println("ff-launcher: live page of every group at http://127.0.0.1:" + metrics.port() + "/");
            err.println("ff-launcher: metrics of every group at http://127.0.0.1:" + metrics.port() + "/metrics");
            err.flush();
        }
        // The config's own secret wins in every group: then there is nothing to hand out.
        boolean configHasSecret =
                config.secretFile().isPresent() || config.secretEnv().isPresent();
        String secret = configHasSecret ? null : RunSecret.generate();
        SpareConfig spares = planner == null || config.checkpoints().isEmpty()
                ? null
                : new SpareConfig(config, common.absoluteConfig(), planner);
        if (slurm
                && config.checkpoints()
                        .map(c -> !c.restart().spareHosts().isEmpty())
                        .orElse(false)) {
            err.println("ff-launcher: --slurm: checkpoints.restart.spareHosts is not used; the allocation places"
                    + " the groups, and a restart starts each on the node it had");
            err.flush();
        }
        try {
            int code = new RunSession(
                            launches,
                            timeout,
                            grace,
                            logDir,
                            out,
                            err,
                            board,
                            secret,
                            fullTraces,
                            reports,
                            RestartPolicy.of(config.checkpoints()),
                            spares == null ? HostMoves.none() : hostMoves(config, spares))
                    .run();
            if (archive != null) {
                archive.publish(code == 0);
            }
            if (stats) {
                StatsTables.print(groups, reports, out);
            }
            String outputFailure = CheckedOutput.failureOf(out);
            if (code == 0 && outputFailure != null) {
                err.println("ff-launcher: " + outputFailure);
                err.flush();
                return RunSession.EXIT_OUTPUT_FAILED;
            }
            return code;
        } finally {
            if (metrics != null) {
                linger(metrics, err);
                metrics.close();
            }
            if (spares != null) {
                spares.close();
            }
        }
    }

    /** The {@code program} label of {@code /metrics}: {@code --program}, else the config file's name. */
    private String programLabel() {
        if (programName != null && !programName.isBlank()) {
            return programName;
        }
        String file = common.absoluteConfig().getFileName().toString();
        return file.endsWith(".json") ? file.substring(0, file.length() - ".json".length()) : file;
    }

    /** With {@code --ui-linger}: the page stays readable after the run, then goes. */
    private void linger(LauncherMetrics metrics, PrintWriter err) {
        if (uiLinger.isZero() || uiLinger.isNegative()) {
            return;
        }
        err.println("ff-launcher: the live page keeps the final counts at http://127.0.0.1:" + metrics.port() + "/ for "
                + Durations.format(uiLinger) + " (--ui-linger)");
        err.flush();
        try {
            Thread.sleep(uiLinger.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopped early: the run's exit code still stands
        }
    }

    /** Before a restart, every host of the run is probed through the run's own ssh options. */
    private HostMoves hostMoves(DffConfig config, SpareConfig spares) {
        HostProbe probe = new HostProbe(remote, prefetch.localHosts());
        return new HostMoves(config.checkpoints().orElseThrow().restart().spareHosts(), probe::unusable, spares);
    }

    /** The launcher's cache folder, made once per run: its warning, if any, is then said once. */
    private LauncherCache cache(PrintWriter err) {
        if (launcherCache == null) {
            launcherCache = LauncherCache.ofUser(err);
        }
        return launcherCache;
    }

    /**
     * Asks the program its groups ({@link ProgramGroups}), or takes the answer it gave last time
     * ({@link GroupCheckCache}); false after saying how they differ from the config's.
     */
    private boolean programMatchesConfig(DffConfig config, CdsArchive archive, PrintWriter err)
            throws IOException, InterruptedException {
        // A JVM that only prints the groups: C1 alone and the archive, if any, start it sooner.
        List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
        if (archive != null) {
            options.addAll(archive.mappingOptions());
        }
        Path configFile = common.absoluteConfig();
        Optional<GroupCheckCache> cache = GroupCheckCache.of(command, configFile, cache(err));
        Optional<List<String>> known = cache.flatMap(GroupCheckCache::groups);
        List<String> programGroups = known.isPresent()
                ? known.get()
                : ProgramGroups.ask(JavaCommand.withJvmOptions(command, options), configFile, err);
        if (programGroups == null) {
            return false;
        }
        List<String> problems = ProgramGroups.mismatches(config, programGroups);
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            err.println("ff-launcher: started no group: the program's groups do not match the config");
            err.flush();
            return false;
        }
        if (known.isEmpty()) {
            cache.ifPresent(c -> c.remember(programGroups));
        }
        return true;
    }

    /**
     * Whether a group starts on this machine, where the program can then be asked its groups; a program
     * started only through ssh or srun may not be runnable here.
     */
    private static boolean startsAnyGroupHere(List<GroupLaunch> launches) {
        return launches.stream().anyMatch(l -> !l.remote() && l.slurmStep() == null);
    }
}
