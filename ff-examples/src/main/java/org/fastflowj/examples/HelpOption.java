package org.fastflowj.examples;

import picocli.CommandLine.Option;

/** {@code -h}/{@code --help}, shared by every subcommand as a picocli mixin. */
public final class HelpOption {
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    private boolean help;
}
