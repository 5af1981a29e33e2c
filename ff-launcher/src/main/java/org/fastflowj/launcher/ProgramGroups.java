package org.fastflowj.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;

/**
 * The groups a program creates, learnt without running it: started with {@code --DFF_PrintGroups}, its
 * first {@code run} prints them ({@code DFF_GROUPS: G1,G2}, sealed with a key handed to it for this question
 * alone, {@link ControlLine}, so that a line the program prints first cannot answer for it) and exits. {@code check} and {@code run}
 * compare them with the config, so that a program with no groups, or one that never calls
 * {@code DFF.init}, is an error before any group starts rather than one whole copy of it per group.
 *
 * <p>Threading: used on the main thread only.
 */
final class ProgramGroups {
    private static final long ASK_TIMEOUT_S = 60;
    private static final String GROUPS_LINE = "DFF_GROUPS:";

    private ProgramGroups() {}

    /** Runs {@code command} with {@code --DFF_PrintGroups}; its groups, or null after saying what went wrong. */
    static List<String> ask(List<String> command, PrintWriter err) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(command);
        argv.add(DFF.PRINT_GROUPS_OPTION);
        String key = ControlLine.newKey();
        ControlLine.Verifier answers = new ControlLine.Verifier(key);
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().put(ControlLine.ENV, key);
        Process p = builder.start();
        try (InputStream in = p.getInputStream()) {
            p.getOutputStream().close();
            String output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            boolean ended = p.waitFor(ASK_TIMEOUT_S, TimeUnit.SECONDS);
            for (String sealed : output.lines().toList()) {
                String line = answers.open(sealed);
                if (line != null && line.startsWith(GROUPS_LINE)) {
                    String list = line.substring(GROUPS_LINE.length()).strip();
                    return list.isEmpty()
                            ? List.of()
                            : Arrays.stream(list.split(",")).map(String::strip).toList();
                }
            }
            err.println("the program did not print its groups (" + GROUPS_LINE + " ...) when started with "
                    + DFF.PRINT_GROUPS_OPTION + (ended ? "; " + ExitStatus.describe(p.exitValue(), false) : "")
                    + "; does its main call args = DFF.init(args) before it runs the graph? Its output:");
            output.lines().forEach(l -> err.println("  " + l));
            err.flush();
            return null;
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Every difference between the program's groups and the config's, one message each, in file order. */
    static List<String> mismatches(DffConfig config, List<String> programGroups) {
        List<String> problems = new ArrayList<>();
        if (programGroups.isEmpty()) {
            problems.add(config.source() + ": the program creates no group (no createGroup or include before its"
                    + " run); each group of the config would run the whole program");
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
