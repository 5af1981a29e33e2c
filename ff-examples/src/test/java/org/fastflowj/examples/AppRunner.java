package org.fastflowj.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.fastflowj.dist.DFF;
import picocli.CommandLine;

/**
 * Runs one subcommand of the examples jar in this JVM, whole (no group), as {@code java -jar} would, and
 * keeps its exit code, standard output and standard error. Every item crosses the serializer
 * ({@link DFF#checkSerialization}), so a type that could not cross groups fails here already.
 */
public final class AppRunner {
    public final int exitCode;
    public final String out;
    public final String err;

    private AppRunner(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    public static AppRunner run(String... args) {
        DFF.reset();
        DFF.checkSerialization(true);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            CommandLine commandLine = Main.commandLine(out);
            commandLine.setErr(new PrintWriter(err, true));
            commandLine.setOut(new PrintWriter(new StringWriter(), true));
            int code = commandLine.execute(args);
            out.flush();
            return new AppRunner(code, bytes.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            DFF.reset();
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out ---\n" + out + "--- err ---\n" + err;
    }
}
