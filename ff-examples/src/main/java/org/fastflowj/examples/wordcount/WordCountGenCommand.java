package org.fastflowj.examples.wordcount;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
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

/** {@code wordcount-gen --lines N --seed S [--output FILE]}: a deterministic file of tweet-like lines. */
@Command(
        name = "wordcount-gen",
        sortOptions = false,
        description = {
            "Writes N tweet-like lines (Zipf-distributed words, at most 280 characters each) for wordcount;",
            "the same seed always gives the same file."
        })
public final class WordCountGenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--lines", paramLabel = "N", description = "Lines to write (default: ${DEFAULT-VALUE}).")
    private long lines = 100_000;

    @Option(names = "--seed", paramLabel = "S", description = "Random seed (default: ${DEFAULT-VALUE}).")
    private long seed = 42;

    @Option(names = "--output", paramLabel = "FILE", description = "Where to write (default: standard output).")
    private Path output;

    @Mixin
    private HelpOption help;

    private final PrintStream out;

    public WordCountGenCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (lines < 0) {
            throw new ParameterException(spec.commandLine(), "--lines: expected 0 or more, got " + lines);
        }
        if (output != null) {
            OptionChecks.requireWritableFile(spec, "--output", output);
        }
        TweetGenerator generator = new TweetGenerator(seed);
        try (Writer w = output == null
                ? new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
                    @Override
                    public void close() throws IOException {
                        flush(); // not out's close: it may be System.out
                    }
                }
                : Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            for (long i = 0; i < lines; i++) {
                w.write(generator.nextLine());
                w.write('\n');
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("wordcount-gen: " + output + ": cannot write: " + e.getMessage());
            return 2;
        }
        return 0;
    }
}
