package org.fastflowj.examples;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.a2abw.A2aBandwidthCommand;
import org.fastflowj.examples.fig5.Fig5Command;
import org.fastflowj.examples.filesearch.FileSearchCommand;
import org.fastflowj.examples.imagefilter.ImageFilterCommand;
import org.fastflowj.examples.mandelbrot.MandelbrotCommand;
import org.fastflowj.examples.masterworker.MasterWorkerCommand;
import org.fastflowj.examples.matmul.MatMulCommand;
import org.fastflowj.examples.matsquare.MatSquareCommand;
import org.fastflowj.examples.swsearch.SwSearchCommand;
import org.fastflowj.examples.swsearch.SwSearchGenCommand;
import org.fastflowj.examples.wordcount.WordCountCommand;
import org.fastflowj.examples.wordcount.WordCountGenCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of the examples jar: {@code java -jar ff-examples.jar <application> [options]}, one picocli
 * subcommand per application. Results go to standard output; logs and errors go to standard error.
 *
 * <p>Exit codes: 0 success, 1 the run failed, 2 bad command line (picocli's usage error code).
 */
@Command(name = "ff-examples", description = "FastFlow-J example applications.", synopsisSubcommandLabel = "COMMAND")
public final class Main {
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    private boolean help;

    private Main() {}

    /**
     * Strips the distributed options ({@code --DFF_GName=G --DFF_Config=app.json}, see {@link DFF#init})
     * before picocli parses the rest, so every subcommand runs whole or as one group.
     */
    public static void main(String[] args) {
        String[] rest;
        try {
            rest = DFF.init(args);
        } catch (IllegalArgumentException e) { // ConfigException too: names file, line and column
            System.err.println("ff-examples: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(commandLine(System.out).execute(rest));
    }

    /**
     * The top command with every application registered; applications write their results to {@code out}
     * (picocli's own messages still go to the command line's out/err writers).
     */
    public static CommandLine commandLine(OutputStream out) {
        CommandLine commandLine = new CommandLine(new Main());
        PrintStream printer = out instanceof PrintStream p ? p : new PrintStream(out, true, StandardCharsets.UTF_8);
        commandLine.addSubcommand(new FileSearchCommand(out));
        commandLine.addSubcommand(new Fig5Command(printer));
        commandLine.addSubcommand(new WordCountCommand(printer));
        commandLine.addSubcommand(new WordCountGenCommand(printer));
        commandLine.addSubcommand(new MasterWorkerCommand(printer));
        commandLine.addSubcommand(new MatSquareCommand(printer));
        commandLine.addSubcommand(new MatMulCommand(printer));
        commandLine.addSubcommand(new ImageFilterCommand(printer));
        commandLine.addSubcommand(new MandelbrotCommand(printer));
        commandLine.addSubcommand(new SwSearchCommand(printer));
        commandLine.addSubcommand(new SwSearchGenCommand());
        commandLine.addSubcommand(new A2aBandwidthCommand(printer));
        commandLine.setParameterExceptionHandler(Main::shortUsageError);
        return commandLine;
    }

    /** A bad command line: the message and a pointer to --help, not the whole usage text. */
    private static int shortUsageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(
                command.getCommandName().equals("ff-examples")
                        ? e.getMessage()
                        : command.getCommandName() + ": " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }
}
