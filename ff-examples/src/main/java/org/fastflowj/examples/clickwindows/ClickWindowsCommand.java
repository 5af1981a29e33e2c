package org.fastflowj.examples.clickwindows;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fastflowj.core.RunOptions;
import org.fastflowj.examples.CheckpointOptions;
import org.fastflowj.examples.HelpOption;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sink;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.Sources;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code clickwindows [--input FILE | --clicks N --users U] [--parallelism P] [--output FILE] [--groups]}. */
@Command(
        name = "clickwindows",
        sortOptions = false,
        description = {
            "Clicks per user in tumbling 10 s event-time windows (ts,user,url lines, up to 2 s of disorder),",
            "printed as windowStart,user,count; generated clicks unless --input is given."
        })
public final class ClickWindowsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--input", paramLabel = "FILE", description = "ts,user,url lines (a file or a directory).")
    private Path input;

    @Option(names = "--clicks", paramLabel = "N", description = "Clicks to generate (default: ${DEFAULT-VALUE}).")
    private long clicks = 1_000_000;

    @Option(
            names = "--users",
            paramLabel = "U",
            description = "Users of the generated clicks (default: ${DEFAULT-VALUE}).")
    private int users = 1_000;

    @Option(
            names = "--parallelism",
            paramLabel = "P",
            description = "Instances of the reader and of the windows (default: ${DEFAULT-VALUE}).")
    private int parallelism = 2;

    @Option(names = "--output", paramLabel = "FILE", description = "Where to write (default: standard output).")
    private Path output;

    @Option(
            names = "--groups",
            description = {
                "The windows in ff-dist group W, the rest in group main (configs/clickwindows.json);",
                "run through the launcher, or whole in one process without a group."
            })
    private boolean groups;

    @Mixin
    private CheckpointOptions checkpoints;

    @Mixin
    private HelpOption help;

    private final PrintStream out;

    public ClickWindowsCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (clicks < 0 || users < 1 || parallelism < 1) {
            throw new ParameterException(spec.commandLine(), "--clicks >= 0, --users >= 1 and --parallelism >= 1");
        }
        if (checkpoints.requested() && groups) {
            throw new ParameterException(spec.commandLine(), "--checkpoints is for one process, not --groups");
        }
        RunOptions options = checkpoints.applyTo(RunOptions.defaults(), spec);
        ClickGenerator generator = new ClickGenerator(users, 1);
        Source<String> lines = input != null ? Sources.lines(input) : Sources.generator(clicks, 0, generator::line);
        Sink<String> sink = output != null ? Sinks.lines(output) : Sinks.forEach(out::println);
        JobStats stats = groups
                ? ClickWindows.countPerUserInGroups(lines, parallelism, sink)
                : ClickWindows.countPerUser(lines, parallelism, sink, options);
        spec.commandLine().getErr().println("clickwindows: " + stats.totalLateRecords() + " late clicks");
        return 0;
    }
}
