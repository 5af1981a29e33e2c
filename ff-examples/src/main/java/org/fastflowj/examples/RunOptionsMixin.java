package org.fastflowj.examples;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What every application subcommand takes besides its own options: {@code --verbose} and the help. */
public final class RunOptionsMixin {
    @Option(names = "--verbose", description = "Print stack traces of failures.")
    private boolean verbose;

    @Mixin
    private HelpOption help;

    /** Whether failures print their stack trace. */
    public boolean verbose() {
        return verbose;
    }
}
