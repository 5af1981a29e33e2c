package org.fastflowj.examples.masterworker;

import java.io.PrintStream;
import java.util.concurrent.Callable;
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

/** {@code masterworker [--tasks N] [--grain-ms G] [--workers W] [--farm]}: Fig. 10 of the 2022 paper. */
@Command(
        name = "masterworker",
        sortOptions = false,
        description = {
            "The 2022 paper's Fig. 10: a master sends N tasks (128-byte payload) on demand to workers that burn"
                    + " a CPU grain each; group G0 holds the master and W workers, groups G1.. W workers each.",
            "Prints the time, the ideal time (N x grain / workers) and the tasks computed per group."
        })
public final class MasterWorkerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--tasks", paramLabel = "N", description = "Tasks (default: ${DEFAULT-VALUE}).")
    private int tasks = 100_000;

    @Option(
            names = "--grain-ms",
            paramLabel = "MS",
            description = "CPU time per task, 0.1 to 5 ms (default: ${DEFAULT-VALUE}).")
    private double grainMs = 0.5;

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
        if (grainMs < 0.1 || grainMs > 5) {
            throw usageError("--grain-ms: expected 0.1 to 5, got " + grainMs);
        }
        if (workersPerGroup < 1 || groupCount < 1) {
            throw usageError("--workers and --groups: expected at least 1");
        }
        DFF.register(Task.class);
        long grainNs = Math.round(grainMs * 1e6);
        BuildingBlock program = farm
                ? MasterWorker.buildFarm(tasks, grainNs, groupCount, workersPerGroup, out)
                : MasterWorker.build(tasks, grainNs, groupCount, workersPerGroup, out);
        long start = System.nanoTime();
        int code = AppRun.run(spec, program, common.verbose(), stats.requested());
        if (code == 0 && AppRun.holds("G0")) {
            double seconds = (System.nanoTime() - start) / 1e9;
            double ideal = tasks * grainMs / 1e3 / (groupCount * workersPerGroup);
            out.printf(
                    "time: %.3f s, ideal %.3f s (%d workers in %d groups, grain %.2f ms)%n",
                    seconds, ideal, groupCount * workersPerGroup, groupCount, grainMs);
            out.flush();
        }
        return code;
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
