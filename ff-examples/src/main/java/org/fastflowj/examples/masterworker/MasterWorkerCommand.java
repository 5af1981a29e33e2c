package org.fastflowj.examples.masterworker;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code masterworker [--tasks N] [--grain-ms G[,G...]] [--workers W] [--farm]}: Fig. 10 of the 2022 paper. */
@Command(
        name = "masterworker",
        sortOptions = false,
        description = {
            "The 2022 paper's Fig. 10: a master sends N tasks (128-byte payload) on demand to workers that burn"
                    + " a CPU grain each; group G0 holds the master and W workers, groups G1.. W workers each.",
            "Prints the time, the ideal time (N over the workers' summed rates; for workers that burn CPU time and"
                    + " outnumber the cores, that times workers over cores) and the tasks computed per group."
        })
public final class MasterWorkerCommand implements Callable<Integer> {
    private static final double MIN_GRAIN_MS = 0.1;
    private static final double MAX_GRAIN_MS = 20;

    @Spec
    private CommandSpec spec;

    @Option(names = "--tasks", paramLabel = "N", description = "Tasks (default: ${DEFAULT-VALUE}).")
    private int tasks = 100_000;

    @Option(
            names = "--grain-ms",
            paramLabel = "MS",
            split = ",",
            description = "CPU time per task, 0.1 to 20 ms (default: ${DEFAULT-VALUE}); a list gives worker i the"
                    + " i-th grain (cycled over the workers), as in --grain-ms 2,2,6: workers of different speeds.")
    private List<Double> grainsMs = List.of(0.5);

    @Option(names = "--workers", paramLabel = "W", description = "Workers per group (default: ${DEFAULT-VALUE}).")
    private int workersPerGroup = 2;

    @Option(
            names = "--groups",
            paramLabel = "G",
            description = "Groups G0..G(G-1) (default: the config's group count, else 2).")
    private Integer groups;

    @Option(
            names = "--farm",
            description = "Build the program as a farm (master as emitter, workers feeding back) whose workers"
                    + " are spread over the groups, instead of an all-to-all.")
    private boolean farm;

    @Option(
            names = "--sleep",
            description = "Workers sleep their grain instead of burning CPU time: their speeds are then their own"
                    + " on a machine with fewer cores than workers.")
    private boolean sleeps;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public MasterWorkerCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        int groupCount = groups != null
                ? groups
                : DFF.config().map(DffConfig::groups).map(g -> g.size()).orElse(2);
        if (tasks < 0) {
            throw usageError("--tasks: expected 0 or more, got " + tasks);
        }
        for (double grainMs : grainsMs) {
            if (!(grainMs >= MIN_GRAIN_MS && grainMs <= MAX_GRAIN_MS)) {
                throw usageError("--grain-ms: expected " + MIN_GRAIN_MS + " to " + MAX_GRAIN_MS + ", got " + grainMs);
            }
        }
        if (workersPerGroup < 1 || groupCount < 1) {
            throw usageError("--workers and --groups: expected at least 1");
        }
        DFF.register(Task.class);
        int workers = groupCount * workersPerGroup;
        long[] grainsNs = new long[workers];
        double tasksPerSecond = 0;
        for (int i = 0; i < workers; i++) {
            double grainMs = grainsMs.get(i % grainsMs.size());
            grainsNs[i] = Math.round(grainMs * 1e6);
            tasksPerSecond += 1e3 / grainMs;
        }
        BuildingBlock program = farm
                ? MasterWorker.buildFarm(tasks, grainsNs, sleeps, groupCount, workersPerGroup, out)
                : MasterWorker.build(tasks, grainsNs, sleeps, groupCount, workersPerGroup, out);
        double idealSeconds = tasks / tasksPerSecond;
        int cores = Runtime.getRuntime().availableProcessors();
        if (!sleeps && workers > cores) {
            idealSeconds *= (double) workers / cores; // each worker busy all along, on a share of the cores
        }
        long start = System.nanoTime();
        int code = AppRun.run(spec, program, common.verbose(), stats.requested());
        if (code == 0 && AppRun.holds("G0")) {
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(
                    "time: %.3f s, ideal %.3f s (%d workers in %d groups, grain %s ms%s)%n",
                    seconds,
                    idealSeconds,
                    workers,
                    groupCount,
                    grainsText(),
                    sleeps ? ", sleeping" : ", " + cores + " cores");
            out.flush();
        }
        return code;
    }

    private String grainsText() {
        return grainsMs.stream().map(g -> String.format("%.2f", g)).collect(Collectors.joining(","));
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
