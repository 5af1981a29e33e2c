package org.fastflowj.examples.wordcount;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.CheckpointOptions;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code wordcount --input tweets.txt [--sources K] [--rate R] [--output counts.tsv] [--checkpoints DIR]}: Fig. 11
 * of the 2022 paper.
 */
@Command(
        name = "wordcount",
        sortOptions = false,
        description = {
            "The 2022 paper's Fig. 11: K source-splitter replicas (groups G1..Gk) shuffle words by key to 4"
                    + " counters (G0), merged by one sink (GS).",
            "A word is a maximal run of non-whitespace characters, case and punctuation kept.",
            "Prints the totals and the throughput in lines/s; --output writes word<TAB>count sorted by word.",
            "With --checkpoints, a node's failure restarts the count from its last checkpoint (--input only)."
        })
public final class WordCountCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ArgGroup(multiplicity = "1")
    private Input input;

    static final class Input {
        @Option(names = "--input", paramLabel = "FILE", description = "Text file of lines; the sources share it.")
        Path file;

        @Option(
                names = "--socket",
                paramLabel = "HOST:PORT",
                description = "Read lines from a TCP server instead (each source opens its own connection).")
        String socket;
    }

    @Option(
            names = "--sources",
            paramLabel = "K",
            description = "Source-splitter replicas (default: ${DEFAULT-VALUE}).")
    private int sources = 4;

    @Option(names = "--rate", paramLabel = "LINES/S", description = "Lines per second per source (default: unlimited).")
    private double rate;

    @Option(names = "--output", paramLabel = "FILE", description = "Write word<TAB>count lines, sorted by word.")
    private Path output;

    @Mixin
    private CheckpointOptions checkpoints;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public WordCountCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (sources < 1) {
            throw usageError("--sources: expected at least 1, got " + sources);
        }
        if (rate < 0) {
            throw usageError("--rate: expected a positive rate, got " + rate);
        }
        if (checkpoints.requested() && input.socket != null) {
            throw usageError("--checkpoints needs --input: a socket's lines are gone once read, so a restart"
                    + " could not read them again");
        }
        RunOptions options = checkpoints.applyTo(RunOptions.defaults().queueCapacity(WordCount.CHANNEL_CAPACITY), spec);
        InetSocketAddress socket = input.socket == null ? null : address(input.socket);
        if (input.file != null && readsInput()) {
            OptionChecks.requireReadableFile(spec, "--input", input.file);
        }
        if (output != null && AppRun.holds("GS")) {
            // before counting: a bad --output would otherwise be found only once every line is counted
            OptionChecks.requireWritableFile(spec, "--output", output);
        }
        DFF.register(Counts.class, TextChunk.class);
        return AppRun.run(
                spec,
                WordCount.build(sources, input.file, socket, rate, output, out),
                options,
                common.verbose(),
                stats.requested());
    }

    /** Whether this process runs sources: the whole program, or one of the groups G1..Gk. */
    private static boolean readsInput() {
        return DFF.group().map(g -> !g.equals("G0") && !g.equals("GS")).orElse(true);
    }

    private InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw usageError("--socket: expected HOST:PORT, got '" + hostPort + "'");
        }
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
