package org.fastflowj.examples.matsquare;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.fastflowj.core.AllToAll;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code matsquare [--count N] [--size 256|512]}: Table 1 (left) of the 2012 paper. */
@Command(
        name = "matsquare",
        sortOptions = false,
        description = {
            "The 2012 paper's Table 1 (left): a stream of N matrices squared by two farms (groups G0 and G1),"
                    + " on demand, the squares fed back to the generator.",
            "Prints the time and a checksum (the sum of every square's values) equal to a sequential run's."
        })
public final class MatSquareCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--count", paramLabel = "N", description = "Matrices in the stream (default: ${DEFAULT-VALUE}).")
    private int count = 64;

    @Option(
            names = "--size",
            paramLabel = "N",
            description = "Matrix order, e.g. 256 or 512 (default: ${DEFAULT-VALUE}).")
    private int size = 256;

    @Option(names = "--workers", paramLabel = "K", description = "Workers per farm (default: ${DEFAULT-VALUE}).")
    private int workers = 2;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "Seed of the matrices' values (default: ${DEFAULT-VALUE}).")
    private long seed = 1;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public MatSquareCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (count < 0 || size < 1 || size > 4096 || workers < 1) {
            throw new ParameterException(
                    spec.commandLine(), "expected --count >= 0, --size 1..4096 and --workers >= 1");
        }
        DFF.serializer(Matrix.class, new MatrixSerializer());
        AllToAll a2a = MatSquare.build(count, size, seed, workers, out);
        long start = System.nanoTime();
        int code = AppRun.run(spec, a2a, common.verbose(), stats.requested());
        if (code == 0 && AppRun.holds("G0")) {
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(
                    "time: %.3f s for %d matrices %dx%d (%.1f matrices/s)%n",
                    seconds, count, size, size, count / seconds);
            out.flush();
        }
        return code;
    }
}
