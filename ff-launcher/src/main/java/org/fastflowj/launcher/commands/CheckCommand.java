package org.fastflowj.launcher.commands;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.hosts.LocalHosts;
import org.fastflowj.launcher.hosts.NamespaceHosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code check}: validates the config, reviews its ports ({@link PortReview}: warnings, and an error for
 * two groups that cannot both listen), says which group's network namespace cannot be entered
 * ({@link NamespaceHosts}) and, given the application's command, compares the groups the
 * program creates with the config's, reporting every mismatch as {@code file:line:column: what}. Starts
 * no group: the program is only asked its groups ({@code --DFF_PrintGroups}), which it prints before
 * running anything.
 *
 * <p>Threading: runs on the main thread.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = "Validates the config and, with COMMAND, that the program's groups match it. Starts nothing."
                + " Exit code 0 when all is well, 2 otherwise.")
public final class CheckCommand implements Callable<Integer> {
    private final Prefetch prefetch;

    public CheckCommand(Prefetch prefetch) {
        this.prefetch = prefetch;
    }

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command that starts the application.")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DffConfig config = common.load(err, prefetch::config);
        if (config == null) {
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        LocalHosts local = prefetch.localHosts();
        for (GroupConfig g : config.groups()) {
            out.println(g.name() + ": " + g.endpoint() + ", started " + where(g, local));
        }
        out.flush();
        List<PortReview.Finding> portFindings = PortReview.review(config, local);
        portFindings.forEach(f -> err.println(f.message()));
        List<String> namespaceProblems = NamespaceHosts.problems(config, NamespaceHosts.Machine.detect());
        namespaceProblems.forEach(err::println);
        err.flush();
        boolean portErrors =
                portFindings.stream().anyMatch(PortReview.Finding::isError) || !namespaceProblems.isEmpty();
        if (command.isEmpty()) {
            if (portErrors) {
                return CommonOptions.EXIT_BAD_CONFIG;
            }
            out.println(config.source() + ": ok, " + config.groups().size() + " groups");
            out.flush();
            return 0;
        }
        List<String> programGroups = ProgramGroups.ask(command, common.absoluteConfig(), err);
        if (programGroups == null) {
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        List<String> problems = ProgramGroups.mismatches(config, programGroups);
        problems.forEach(err::println);
        err.flush();
        if (!problems.isEmpty() || portErrors) {
            return CommonOptions.EXIT_BAD_CONFIG;
        }
        out.println(config.source() + ": ok, the program's groups " + programGroups + " match the config");
        out.flush();
        return 0;
    }

    private static String where(GroupConfig g, LocalHosts local) {
        return g.launchNamespace()
                .map(namespace -> "in network namespace " + namespace + " of this machine (ip netns exec)")
                .orElseGet(() -> local.isLocal(g.launchHost()) ? "locally" : "through ssh on " + g.launchHost());
    }
}
