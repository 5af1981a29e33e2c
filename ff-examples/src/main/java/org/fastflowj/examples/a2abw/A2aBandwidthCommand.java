package org.fastflowj.examples.a2abw;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code a2abw --input FILE [--lworkers L] [--rworkers R] [--chunk-kb K]}: Fig. 9 (bottom right), 2022 paper. */
@Command(
        name = "a2abw",
        sortOptions = false,
        description = {
            "The 2022 paper's Fig. 9 (bottom right): L-Workers (groups L1..) read contiguous parts of a file and"
                    + " send chunks to the R-Workers (groups R1..) owning them; a sink (group S) sums up.",
            "Prints the bytes per R-Worker, their weighted sum (position-weighted, to check every byte arrived once)"
                    + " and the aggregate bandwidth in MB/s."
        })
public final class A2aBandwidthCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "The file to move.")
    private Path input;

    @Option(names = "--lworkers", paramLabel = "L", description = "Reading L-Workers (default: ${DEFAULT-VALUE}).")
    private int lWorkers = 2;

    @Option(names = "--rworkers", paramLabel = "R", description = "Receiving R-Workers (default: ${DEFAULT-VALUE}).")
    private int rWorkers = 2;

    @Option(names = "--chunk-kb", paramLabel = "KB", description = "Chunk size in KiB (default: ${DEFAULT-VALUE}).")
    private int chunkKb = 64;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public A2aBandwidthCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        OptionChecks.requireInRange(spec, "--lworkers", lWorkers, 1, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--rworkers", rWorkers, 1, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--chunk-kb", chunkKb, 1, 16 * 1024);
        boolean reads = DFF.group().map(g -> g.startsWith("L")).orElse(true);
        if (reads) {
            OptionChecks.requireReadableFile(spec, "--input", input);
        }
        DFF.serializer(Chunk.class, new ChunkSerializer());
        DFF.register(Report.class);
        return AppRun.run(
                spec,
                A2aBandwidth.build(input, lWorkers, rWorkers, chunkKb * 1024, out),
                common.verbose(),
                stats.requested());
    }
}
