package org.fastflowj.examples.fig5;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.fastflowj.core.Pipeline;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fig5 [--items N]}: the 2022 paper's Fig. 5, in one process or as groups G1..G4. */
@Command(
        name = "fig5",
        sortOptions = false,
        mixinStandardHelpOptions = false,
        description = {
            "The 2022 paper's Fig. 5: source -> 2x4 all-to-all -> sink, in groups G1..G4 (configs/fig5.json).",
            "Prints how many items each R-Worker saw and the total; no item may be lost or duplicated."
        })
public final class Fig5Command implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--items", paramLabel = "N", description = "Items the source sends (default: ${DEFAULT-VALUE}).")
    private long items = 100_000;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public Fig5Command(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (items < 0 || items > Integer.MAX_VALUE) {
            throw new ParameterException(
                    spec.commandLine(), "--items: expected 0.." + Integer.MAX_VALUE + ", got " + items);
        }
        Pipeline pipe = Fig5.build(items, out);
        long start = System.nanoTime();
        int code = AppRun.run(spec, pipe, common.verbose(), stats.requested());
        if (code == 0 && AppRun.holds("G4")) {
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf("time: %.3f s, %.0f items/s%n", seconds, items / seconds);
            out.flush();
        }
        return code;
    }
}
