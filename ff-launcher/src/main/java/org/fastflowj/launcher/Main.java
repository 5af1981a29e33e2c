package org.fastflowj.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
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
        subcommands = {RunCommand.class, CheckCommand.class, CommandLine.HelpCommand.class},
        description = "Starts, watches and stops every group of a distributed FastFlow-J application.",
        footer = {
            "",
            "Exit codes of run: 0 every group exited 0; 1 a group failed; 2 bad usage or config;"
                    + " 124 --timeout reached; 130 interrupted."
        })
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the launcher with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
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
