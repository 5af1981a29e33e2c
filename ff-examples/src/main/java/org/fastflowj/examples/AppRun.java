package org.fastflowj.examples;

import java.io.PrintWriter;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.GroupsPrintedException;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs an application's tree the same way for every subcommand: whole in this process when no group is
 * selected, or only this process's group when started with {@code --DFF_GName}. A failure becomes one
 * line on stderr and an exit code: 2 for bad input ({@link InputException} anywhere in the causes), 1
 * for anything else; the stack trace only with {@code --verbose}. With {@code --stats} the run's node table
 * follows on stderr, after a failure too (what each node did up to it).
 */
public final class AppRun {
    private AppRun() {}

    /**
     * Runs {@code block} to its end, then prints its node table if {@code stats}; returns the exit code (0
     * when it ended normally).
     */
    public static int run(CommandSpec spec, BuildingBlock block, boolean verbose, boolean stats) {
        return run(spec, block, RunOptions.defaults(), verbose, stats);
    }

    /** As {@link #run(CommandSpec, BuildingBlock, boolean, boolean)}, with {@code options} (checkpoints, say). */
    public static int run(CommandSpec spec, BuildingBlock block, RunOptions options, boolean verbose, boolean stats) {
        int code = runToEnd(spec, block, options, verbose);
        if (stats) {
            PrintWriter err = spec.commandLine().getErr();
            try {
                err.print(block.stats().toTable());
            } catch (IllegalStateException neverStarted) {
                err.println(spec.name() + ": no statistics: the run did not start");
            }
            err.flush();
        }
        return code;
    }

    private static int runToEnd(CommandSpec spec, BuildingBlock block, RunOptions options, boolean verbose) {
        String name = spec.name();
        PrintWriter err = spec.commandLine().getErr();
        try {
            block.runAndWaitEnd(options);
            return 0;
        } catch (GroupsPrintedException asked) {
            throw asked; // no failure: the command line ends it (Main)
        } catch (RuntimeException e) {
            InputException input = inputCause(e);
            if (input != null) {
                err.println(name + ": " + input.getMessage());
            } else {
                err.println(name + " failed: " + e.getMessage());
            }
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return input != null ? 2 : 1;
        }
    }

    /** Whether this process prints the results: the whole program runs here, or {@code group} is this one. */
    public static boolean holds(String group) {
        return DFF.group().map(group::equals).orElse(true);
    }

    /** Whether the whole program runs in this process (no group selected). */
    public static boolean wholeProgram() {
        return DFF.group().isEmpty();
    }

    private static InputException inputCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InputException input) {
                return input;
            }
        }
        return null;
    }
}
