package org.fastflowj.examples;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.fastflowj.dist.CheckedOutput;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.GroupsPrintedException;
import org.fastflowj.examples.a2abw.A2aBandwidthCommand;
import org.fastflowj.examples.clickwindows.ClickWindowsCommand;
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
 * <p>Exit codes: 0 success, 1 the run failed, 2 bad command line (picocli's usage error code), bad input, or
 * standard output could not be written (a full disk, a pipe closed early), as {@code grep} exits.
 */
@Command(name = "ff-examples", description = "FastFlow-J example applications.", synopsisSubcommandLabel = "COMMAND")
public final class Main {
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    private boolean help;

    /**
     * Every application by its subcommand name, in the order the help lists them; each is made for the
     * stream its results go to.
     */
    private static final Map<String, Application> APPLICATIONS = applications();

    /** Makes one application's command, printing its results to {@code out} (or its {@code printer}). */
    private interface Application {
        Object command(OutputStream out, PrintStream printer);
    }

    private Main() {}

    private static Map<String, Application> applications() {
        Map<String, Application> apps = new LinkedHashMap<>();
        apps.put("filesearch", (out, printer) -> new FileSearchCommand(out));
        apps.put("fig5", (out, printer) -> new Fig5Command(printer));
        apps.put("wordcount", (out, printer) -> new WordCountCommand(printer));
        apps.put("wordcount-gen", (out, printer) -> new WordCountGenCommand(printer));
        apps.put("clickwindows", (out, printer) -> new ClickWindowsCommand(printer));
        apps.put("masterworker", (out, printer) -> new MasterWorkerCommand(printer));
        apps.put("matsquare", (out, printer) -> new MatSquareCommand(printer));
        apps.put("matmul", (out, printer) -> new MatMulCommand(printer));
        apps.put("imagefilter", (out, printer) -> new ImageFilterCommand(printer));
        apps.put("mandelbrot", (out, printer) -> new MandelbrotCommand(printer));
        apps.put("swsearch", (out, printer) -> new SwSearchCommand(printer));
        apps.put("swsearch-gen", (out, printer) -> new SwSearchGenCommand());
        apps.put("a2abw", (out, printer) -> new A2aBandwidthCommand(printer));
        return apps;
    }

    /** The subcommand names of every application. */
    static Set<String> applicationNames() {
        return APPLICATIONS.keySet();
    }

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
        // A PrintStream swallows a full disk's or a closed pipe's error: the run would end 0, its results lost.
        PrintStream stdout = CheckedOutput.standardOutput().printStream();
        System.setOut(stdout); // a result printed through System.out is checked too
        int code = commandLine(stdout, rest).execute(rest);
        String failure = CheckedOutput.failureOf(stdout);
        if (failure != null) {
            System.err.println("ff-examples: " + failure);
            code = 2;
        }
        System.exit(code);
    }

    /**
     * The top command with every application registered; applications write their results to {@code out}
     * (picocli's own messages still go to the command line's out/err writers).
     */
    public static CommandLine commandLine(OutputStream out) {
        return withApplications(out, APPLICATIONS.keySet());
    }

    /**
     * The top command for {@code args}: when they start with an application's name, only that application
     * is registered. Picocli reads every registered command's annotations by reflection, and its classes
     * are too old for a CDS archive to hold, so registering all twelve applications would cost each JVM
     * CPU time on its way to a first result (docs/benchmarks.md, "Time to a first result"); any other
     * first word (a typo, {@code --help}) gets
     * them all, for the list and the suggestions.
     */
    static CommandLine commandLine(OutputStream out, String[] args) {
        return args.length > 0 && APPLICATIONS.containsKey(args[0])
                ? withApplications(out, Set.of(args[0]))
                : commandLine(out);
    }

    private static CommandLine withApplications(OutputStream out, Set<String> names) {
        CommandLine commandLine = new CommandLine(new Main());
        PrintStream printer = out instanceof PrintStream p ? p : new PrintStream(out, true, StandardCharsets.UTF_8);
        APPLICATIONS.forEach((name, application) -> {
            if (names.contains(name)) {
                commandLine.addSubcommand(application.command(out, printer));
            }
        });
        commandLine.setParameterExceptionHandler(Main::shortUsageError);
        commandLine.setExecutionExceptionHandler(Main::groupsPrinted);
        return commandLine;
    }

    /**
     * Asked only its groups ({@link DFF#PRINT_GROUPS_OPTION}), the application printed them: it is done,
     * also when a layer between (a stream job's failure) wrapped the exception.
     */
    private static int groupsPrinted(Exception e, CommandLine command, CommandLine.ParseResult parsed)
            throws Exception {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof GroupsPrintedException) {
                return 0;
            }
        }
        throw e;
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
