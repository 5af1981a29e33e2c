package org.fastflowj.examples.swsearch;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fastflowj.examples.HelpOption;
import org.fastflowj.examples.OptionChecks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code swsearch-gen --sequences N --seed S --output db.fasta --query-output q.fasta}. */
@Command(
        name = "swsearch-gen",
        sortOptions = false,
        description = {
            "Writes a synthetic protein database (natural residue frequencies, log-normal lengths, a family of"
                    + " homologues) and a query from that family, for swsearch; the same seed gives the same files."
        })
public final class SwSearchGenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--sequences", paramLabel = "N", description = "Database records (default: ${DEFAULT-VALUE}).")
    private int sequences = 10_000;

    @Option(names = "--seed", paramLabel = "S", description = "Random seed (default: ${DEFAULT-VALUE}).")
    private long seed = 42;

    @Option(names = "--output", required = true, paramLabel = "FILE", description = "The database (FASTA).")
    private Path output;

    @Option(names = "--query-output", paramLabel = "FILE", description = "Also write a query (FASTA) from the family.")
    private Path queryOutput;

    @Mixin
    private HelpOption help;

    @Override
    public Integer call() {
        if (sequences < 0) {
            throw new ParameterException(spec.commandLine(), "--sequences: expected 0 or more, got " + sequences);
        }
        OptionChecks.requireWritableFile(spec, "--output", output);
        if (queryOutput != null) {
            OptionChecks.requireWritableFile(spec, "--query-output", queryOutput);
        }
        ProteinGenerator generator = new ProteinGenerator(seed);
        Path current = output;
        try {
            try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.US_ASCII)) {
                for (int i = 1; i <= sequences; i++) {
                    w.write(ProteinGenerator.record(
                            String.format("SYN%06d synthetic protein %d", i, i), generator.nextSequence()));
                }
            }
            if (queryOutput != null) {
                current = queryOutput;
                Files.writeString(
                        queryOutput,
                        ProteinGenerator.record("QUERY family member (seed " + seed + ")", generator.homologue(0.3)),
                        StandardCharsets.US_ASCII);
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("swsearch-gen: " + current + ": cannot write: " + e.getMessage());
            return 2;
        }
        return 0;
    }
}
