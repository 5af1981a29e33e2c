package org.fastflowj.examples;

import picocli.CommandLine.Option;

/** {@code --stats}: print the run's node table at its end, on stderr, so that stdout keeps the results. */
public final class StatsOption {
    @Option(
            names = "--stats",
            description =
                    "At the end, print each node's items in and out, service time and time blocked (on" + " stderr).")
    private boolean stats;

    /** Whether the node table was asked for. */
    public boolean requested() {
        return stats;
    }
}
