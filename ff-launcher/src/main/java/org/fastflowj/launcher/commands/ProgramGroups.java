package org.fastflowj.launcher.commands;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.ExitStatus;

/**
 * The groups a program creates, learnt without running it: started with {@code --DFF_PrintGroups}, its
 * first {@code run} prints them ({@code DFF_GROUPS: G1,G2}, sealed with a key handed to it for this question
 * alone, {@link ControlLine}, so that a line the program prints first cannot answer for it) and runs
 * nothing ({@link org.fastflowj.dist.GroupsPrintedException}). {@code check} and {@code run}
 * compare them with the config, so that a program with no groups, or one that never calls
 * {@code DFF.init}, is an error before any group starts rather than one whole copy of it per group.
 *
 * <p>Threading: used on the main thread; each question has a daemon thread of its own that stops a program
 * that does not answer in time.
 */
final class ProgramGroups {
    private static final long ASK_TIMEOUT_S = 60;
    /** How long a program that answered may take to end by itself, and then to end after a SIGTERM. */
    private static final long EXIT_GRACE_MS = 2_000;

    private static final String GROUPS_LINE = "DFF_GROUPS:";

    private ProgramGroups() {}

    /**
     * Runs {@code command} with the config its groups will get ({@code --DFF_Config}, so that a program
     * whose groups follow its config answers as it will run) and {@code --DFF_PrintGroups}; its groups, or
     * null after saying what went wrong. The answer is read as it comes: the program is stopped once it gave
     * it (its {@code main} may still be unwinding, or other threads of its own keep it alive), or after
     * {@value #ASK_TIMEOUT_S} s without it.
     */
    static List<String> ask(List<String> command, Path config, PrintWriter err)
            throws IOException, InterruptedException {
        List<String> argv = withConfig(command, config);
        argv.add(DFF.PRINT_GROUPS_OPTION);
        String key = ControlLine.newKey();
        ControlLine.Verifier answers = new ControlLine.Verifier(key);
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().put(ControlLine.ENV, key);
        Process p = builder.start();
        AtomicBoolean timedOut = new AtomicBoolean();
        Thread deadline = new Thread(() -> stopAtDeadline(p, timedOut), "ff-launcher-groups-deadline");
        deadline.setDaemon(true);
        deadline.start();
        List<String> output = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            p.getOutputStream().close();
            for (String sealed = in.readLine(); sealed != null; sealed = in.readLine()) {
                String line = answers.open(sealed);
                if (line != null && line.startsWith(GROUPS_LINE)) {
                    String list = line.substring(GROUPS_LINE.length()).strip();
                    return list.isEmpty()
                            ? List.of()
                            : Arrays.stream(list.split(",")).map(String::strip).toList();
                }
                output.add(sealed);
            }
            boolean ended = !timedOut.get() && p.waitFor(ASK_TIMEOUT_S, TimeUnit.SECONDS);
            err.println("the program did not print its groups (" + GROUPS_LINE + " ...) when started with "
                    + DFF.PRINT_GROUPS_OPTION
                    + (ended
                            ? "; " + ExitStatus.describe(p.exitValue(), false)
                            : timedOut.get() ? "; stopped after " + ASK_TIMEOUT_S + " s" : "")
                    + "; does its main call args = DFF.init(args) before it runs the graph? Its output:");
            output.forEach(l -> err.println("  " + l));
            err.flush();
            return null;
        } finally {
            deadline.interrupt();
            stopAfterAnswer(p);
        }
    }

    /**
     * The program ends by itself once it printed its groups; it gets a moment for that, then a SIGTERM,
     * and only then a SIGKILL, so that its shutdown hooks run (a lines sink's hidden temporary file, say,
     * is deleted by one).
     */
    private static void stopAfterAnswer(Process p) throws InterruptedException {
        if (!p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /** {@code command} with {@code --DFF_Config} naming {@code config}, as each group's command has it. */
    static List<String> withConfig(List<String> command, Path config) {
        List<String> argv = new ArrayList<>(command);
        argv.add(DFF.CONFIG_OPTION + "=" + config.toAbsolutePath().normalize());
        return argv;
    }

    /** Stops the program if it has neither answered nor ended in time: its output then ends. */
    private static void stopAtDeadline(Process p, AtomicBoolean timedOut) {
        try {
            if (!p.waitFor(ASK_TIMEOUT_S, TimeUnit.SECONDS)) {
                timedOut.set(true);
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            // the answer came first: ask stops the program itself
        }
    }

    /** Every difference between the program's groups and the config's, one message each, in file order. */
    static List<String> mismatches(DffConfig config, List<String> programGroups) {
        List<String> problems = new ArrayList<>();
        if (programGroups.isEmpty()) {
            problems.add(config.source() + ": the program creates no group (no createGroup or include before its"
                    + " run, and the config lists no \"blocks\" for its groups); each group of the config would run"
                    + " the whole program");
        }
        for (String used : programGroups) {
            if (config.group(used).isEmpty()) {
                problems.add(config.source() + ": group '" + used
                        + "' is used by the program but not defined in the config");
            }
        }
        for (GroupConfig g : config.groups()) {
            if (!programGroups.contains(g.name())) {
                problems.add(config.source() + ":" + g.line() + ":" + g.column() + ": group '" + g.name()
                        + "' is defined in the config but not used by the program");
            }
        }
        return problems;
    }
}
