package org.fastflowj.examples.swsearch;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.fastflowj.core.Farm;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.InputException;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code swsearch --query q.fasta --db db.fasta}: the Smith-Waterman farm of the 2009 report, section 4.2. */
@Command(
        name = "swsearch",
        sortOptions = false,
        description = {
            "Smith-Waterman search (2009 report, section 4.2): a farm whose emitter streams <query, subject> pairs"
                    + " from a FASTA database, whose workers score them (BLOSUM50, affine gaps: a gap of length k"
                    + " costs OPEN + k*EXTEND) and whose collector prints the top hits.",
            "Prints rank<TAB>score<TAB>id<TAB>description per hit, then the GCUPS."
        })
public final class SwSearchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--query",
            required = true,
            paramLabel = "FILE",
            description = "FASTA file; its first record is the query.")
    private Path query;

    @Option(names = "--db", required = true, paramLabel = "FILE", description = "FASTA database.")
    private Path database;

    @Option(
            names = "--gap-open",
            paramLabel = "N",
            description = "Gap open penalty (default: ${DEFAULT-VALUE}; the report uses 10 and 5).")
    private int open = 10;

    @Option(
            names = "--gap-extend",
            paramLabel = "N",
            description = "Gap extension penalty (default: ${DEFAULT-VALUE}).")
    private int extend = 2;

    @Option(names = "--top", paramLabel = "K", description = "Hits printed (default: ${DEFAULT-VALUE}).")
    private int top = 10;

    @Option(names = "--workers", paramLabel = "K", description = "Farm workers (default: ${DEFAULT-VALUE}).")
    private int workers = 2;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public SwSearchCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        OptionChecks.requireInRange(spec, "--gap-open", open, 0, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--gap-extend", extend, 0, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--top", top, 1, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--workers", workers, 1, Integer.MAX_VALUE);
        OptionChecks.requireReadableFile(spec, "--query", query);
        OptionChecks.requireReadableFile(spec, "--db", database);
        Protein q;
        try {
            q = firstRecord(query);
        } catch (InputException e) {
            spec.commandLine().getErr().println("swsearch: " + e.getMessage());
            return 2;
        }
        DFF.register(Protein.class, Pair.class, Hit.class);
        Farm farm = Farm.of(workers, () -> new Nodes.Scorer(open, extend))
                .onDemand()
                .emitter(new Nodes.PairEmitter(q, database))
                .collector(new Nodes.TopHits(top, q.length(), out));
        return AppRun.run(spec, farm, common.verbose(), stats.requested());
    }

    private static Protein firstRecord(Path file) {
        List<Protein> records = new ArrayList<>();
        Fasta.read(file, records::add);
        if (records.isEmpty()) {
            throw new InputException(file + ": no FASTA record");
        }
        return records.get(0);
    }
}
