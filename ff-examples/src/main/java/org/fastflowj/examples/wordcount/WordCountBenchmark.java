package org.fastflowj.examples.wordcount;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Word count in one process against sequential Java loops over the same file, in the same JVM and the
 * same minutes; every variant's counts are checked equal to the first sequential loop's.
 *
 * <pre>
 *   sequential           BufferedReader.readLine, split at whitespace, substring, HashMap.merge (one thread)
 *   sequential chunked   the splitter's own code on one thread: LineChunker, WordSplitter, one WordTable
 *   FF-J                 WordCount.build(K sources): K × (LineSource ─▶ Splitter) ─all-to-all─▶ 4 Counters ─▶ CountSink
 * </pre>
 *
 * <p>A round runs the three back to back (order rotated every round, {@code System.gc()} in between);
 * the table gives each one's lines/s, median over rounds, and the median of the per-round ratios of
 * FF-J to each sequential loop. The first rounds compile the code and are not counted ({@code --warmup}).
 *
 * <p>Usage: {@code java -cp ff-examples.jar org.fastflowj.examples.wordcount.WordCountBenchmark [--lines
 * 1000000] [--input FILE] [--sources 2] [--rounds 3] [--warmup 2]}; without {@code --input} it writes
 * {@code --lines} lines of {@code wordcount-gen --seed 1} to a temporary file first.
 */
public final class WordCountBenchmark {
    private enum Variant {
        SEQUENTIAL,
        SEQUENTIAL_CHUNKED,
        FFJ
    }

    private record Result(long lines, Map<String, Long> counts, long nanos) {
        double linesPerSecond() {
            return lines * 1e9 / nanos;
        }
    }

    private final Path input;
    private final int sources;
    private final PrintStream out;

    private WordCountBenchmark(Path input, int sources, PrintStream out) {
        this.input = input;
        this.sources = sources;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        long lines = Long.parseLong(options.getOrDefault("--lines", "1000000"));
        int sources = Integer.parseInt(options.getOrDefault("--sources", "2"));
        int rounds = Integer.parseInt(options.getOrDefault("--rounds", "3"));
        int warmup = Integer.parseInt(options.getOrDefault("--warmup", "2"));
        Path input = options.containsKey("--input") ? Path.of(options.get("--input")) : null;
        Path generated = null;
        try {
            if (input == null) {
                generated = Files.createTempFile("wordcount-", ".txt");
                generate(generated, lines);
                input = generated;
            }
            new WordCountBenchmark(input, sources, System.out).run(rounds, warmup);
        } finally {
            if (generated != null) {
                Files.deleteIfExists(generated);
            }
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + String.join(" ", args));
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    static void generate(Path file, long lines) throws IOException {
        TweetGenerator generator = new TweetGenerator(1);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (long i = 0; i < lines; i++) {
                w.write(generator.nextLine());
                w.write('\n');
            }
        }
    }

    private void run(int rounds, int warmup) throws Exception {
        out.printf(
                Locale.ROOT,
                "# WordCountBenchmark: %s (%,d bytes), %d sources, %d rounds after %d warm-up rounds, %d cores, %s %s%n",
                input,
                Files.size(input),
                sources,
                rounds,
                warmup,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"));
        for (int round = 0; round < warmup; round++) {
            runRound(round);
        }
        List<Map<Variant, Result>> measured = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            measured.add(runRound(round));
        }
        out.println();
        out.println("| lines | sequential lines/s | sequential chunked lines/s | FF-J lines/s"
                + " | FF-J / sequential | FF-J / sequential chunked |");
        out.println("|---|---|---|---|---|---|");
        out.printf(
                Locale.ROOT,
                "| %d | %.3e | %.3e | %.3e | %s | %s |%n",
                measured.get(0).get(Variant.SEQUENTIAL).lines(),
                median(measured, r -> r.get(Variant.SEQUENTIAL).linesPerSecond()),
                median(measured, r -> r.get(Variant.SEQUENTIAL_CHUNKED).linesPerSecond()),
                median(measured, r -> r.get(Variant.FFJ).linesPerSecond()),
                ratio(measured, Variant.SEQUENTIAL),
                ratio(measured, Variant.SEQUENTIAL_CHUNKED));
    }

    private Map<Variant, Result> runRound(int round) throws Exception {
        Variant[] all = Variant.values();
        Map<Variant, Result> results = new java.util.EnumMap<>(Variant.class);
        for (int i = 0; i < all.length; i++) {
            Variant variant = all[(i + round) % all.length];
            results.put(variant, run(variant));
            System.gc();
        }
        Result reference = results.get(Variant.SEQUENTIAL);
        for (Variant v : all) {
            Result r = results.get(v);
            if (r.lines() != reference.lines() || !r.counts().equals(reference.counts())) {
                throw new IllegalStateException(
                        v + " counted " + r.lines() + " lines and " + r.counts().size()
                                + " distinct words, the sequential loop " + reference.lines() + " and "
                                + reference.counts().size() + ": the counts differ");
            }
        }
        out.printf(
                Locale.ROOT,
                "round %d: sequential %.3e, sequential chunked %.3e, FF-J %.3e lines/s%n",
                round,
                reference.linesPerSecond(),
                results.get(Variant.SEQUENTIAL_CHUNKED).linesPerSecond(),
                results.get(Variant.FFJ).linesPerSecond());
        return results;
    }

    private Result run(Variant variant) throws IOException {
        return switch (variant) {
            case SEQUENTIAL -> sequential(input);
            case SEQUENTIAL_CHUNKED -> sequentialChunked(input);
            case FFJ -> pipeline();
        };
    }

    /** The plain loop: a line at a time, a String per word, a boxed count per word. */
    static Result sequential(Path file) throws IOException {
        long start = System.nanoTime();
        HashMap<String, Long> counts = new HashMap<>();
        long lines = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines++;
                int n = line.length();
                int i = 0;
                while (i < n) {
                    while (i < n && Character.isWhitespace(line.charAt(i))) {
                        i++;
                    }
                    int wordStart = i;
                    while (i < n && !Character.isWhitespace(line.charAt(i))) {
                        i++;
                    }
                    if (i > wordStart) {
                        counts.merge(line.substring(wordStart, i), 1L, Long::sum);
                    }
                }
            }
        }
        return new Result(lines, counts, System.nanoTime() - start);
    }

    /** The splitter's code on this thread alone: chunks of lines, one reused char[], one table. */
    static Result sequentialChunked(Path file) throws IOException {
        long start = System.nanoTime();
        WordTable[] table = Splitter.WordSplitter.newTables(1);
        Splitter.WordSplitter splitter = new Splitter.WordSplitter();
        long lines = 0;
        try (InputStream in = Files.newInputStream(file)) {
            LineChunker chunks = new LineChunker(in, 0, Long.MAX_VALUE, Integer.MAX_VALUE, true);
            for (TextChunk chunk = chunks.next(); chunk != null; chunk = chunks.next()) {
                lines += chunk.lines();
                splitter.count(chunk.utf8(), table);
            }
        }
        return new Result(lines, table[0].drain(), System.nanoTime() - start);
    }

    /** {@link WordCount#build} in this process, timed from before the start to after the end. */
    private Result pipeline() {
        CountSink sink = new CountSink(null, new PrintStream(PrintStream.nullOutputStream()));
        long start = System.nanoTime();
        WordCount.build(sources, input, null, 0, sink).runAndWaitEnd();
        long nanos = System.nanoTime() - start;
        return new Result(sink.lines(), sink.total(), nanos);
    }

    private static double median(List<Map<Variant, Result>> rounds, ToDoubleFunction<Map<Variant, Result>> value) {
        double[] sorted = rounds.stream().mapToDouble(value).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** FF-J over {@code baseline}: the median of the per-round ratios, and their range. */
    private static String ratio(List<Map<Variant, Result>> rounds, Variant baseline) {
        ToDoubleFunction<Map<Variant, Result>> ratio =
                r -> r.get(Variant.FFJ).linesPerSecond() / r.get(baseline).linesPerSecond();
        double[] all = rounds.stream().mapToDouble(ratio).sorted().toArray();
        return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", median(rounds, ratio), all[0], all[all.length - 1]);
    }
}
