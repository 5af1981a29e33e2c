package org.fastflowj.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import org.fastflowj.dist.CheckedOutput;
import org.fastflowj.launcher.commands.CheckCommand;
import org.fastflowj.launcher.commands.Prefetch;
import org.fastflowj.launcher.commands.RunCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar ff-launcher.jar}: starts, watches and stops every group of a distributed FastFlow-J
 * application (the 2022 paper's {@code dff_run}). See {@code docs/launcher.md}.
 *
 * <p>Threading: picocli runs the chosen command on the main thread.
 */
@Command(
        name = "ff-launcher",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Starts, watches and stops every group of a distributed FastFlow-J application.",
        footer = {
            "",
            "Exit codes of run: 0 every group exited 0; 1 a group failed; 2 bad usage or config, or the output"
                    + " cannot be written;"
                    + " 124 --timeout reached; 130 interrupted."
        })
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        Prefetch prefetch = Prefetch.start(args);
        // Unbuffered descriptors under writers that keep their first error: a run whose output fails stops.
        PrintWriter out = CheckedOutput.standardOutput().printWriter();
        PrintWriter err = CheckedOutput.standardError().printWriter();
        System.exit(execute(args, out, err, prefetch));
    }

    /** Runs the launcher with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, Prefetch.none());
    }

    private static int execute(String[] args, PrintWriter out, PrintWriter err, Prefetch prefetch) {
        CommandLine cli = new CommandLine(new Main());
        // Picocli reads a command's annotations by reflection when it is added: a run or a check adds only
        // itself, anything else (help, a typo) gets every command for the list and the suggestions.
        String first = args.length > 0 ? args[0] : "";
        if (!first.equals("check")) {
            cli.addSubcommand(new RunCommand(prefetch));
        }
        if (!first.equals("run")) {
            cli.addSubcommand(new CheckCommand(prefetch));
        }
        if (!first.equals("run") && !first.equals("check")) {
            cli.addSubcommand(new CommandLine.HelpCommand());
        }
        cli.setOut(out);
        cli.setErr(err);
        // Everything from the first positional word on is the application's command, options included,
        // so `run -c app.json java -cp app.jar Main` works without `--` too.
        cli.setStopAtPositional(true);
        return cli.execute(args);
    }

    @Override
    public void run() {
        // No subcommand: show what there is.
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    /** The version Maven wrote into {@code ff-launcher-version.properties}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("/ff-launcher-version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {
                "ff-launcher " + p.getProperty("version", "(unknown version)"),
                "Java ${java.version} (${java.vendor}), ${os.name} ${os.arch}"
            };
        }
    }
}
