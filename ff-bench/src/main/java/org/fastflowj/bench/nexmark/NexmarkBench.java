package org.fastflowj.bench.nexmark;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * NEXMark on FastFlow-J's stream API, Flink and Hazelcast Jet: every query on every engine from the same
 * generator, in a child JVM per engine (so that no engine's threads, heap or JIT profile reach another's).
 * Throughput: events per second at full speed, the median of {@code --runs} runs after a warm-up run, with
 * the in-run bound (query BOUND: the generator straight into the counting sink). Latency (q5, q7): the
 * generator paced at half of FastFlow-J's throughput for the query, p50 and p99 of the time from a
 * window's end (mapped to wall-clock time by the pace) to its result at the sink. Writes JSON lines and a
 * markdown table (docs/benchmarks.md, NEXMark).
 */
@Command(
        name = "nexmark",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "NEXMark q1, q2, q3, q5, q7, q8 on FastFlow-J, Flink and Hazelcast Jet; see docs/benchmarks.md.")
public final class NexmarkBench implements Callable<Integer> {
    enum Engine {
        FFJ("FastFlow-J"),
        /** FastFlow-J with a checkpoint every second (exactly once, aligned): the cost of checkpoints. */
        FFJ_CHECKPOINTS("FastFlow-J, checkpoints every 1 s"),
        FLINK("Flink"),
        JET("Jet");

        final String title;

        Engine(String title) {
            this.title = title;
        }
    }

    @Option(names = "--engines", split = ",", description = "Engines (default: ${DEFAULT-VALUE}).")
    List<Engine> engines = List.of(Engine.FFJ, Engine.FLINK, Engine.JET);

    @Option(names = "--queries", split = ",", description = "Queries (default: ${DEFAULT-VALUE}).")
    List<Query> queries = List.of(
            Query.BOUND,
            Query.Q1,
            Query.Q1_BOUND,
            Query.Q2,
            Query.Q3,
            Query.Q5,
            Query.Q5_100MS,
            Query.Q7,
            Query.Q8,
            Query.Q8_BOUND);

    @Option(names = "--parallelism", split = ",", description = "Parallelisms (default: ${DEFAULT-VALUE}).")
    List<Integer> parallelisms = List.of(2);

    @Option(
            names = "--events",
            description = "Events per run of a stateless query and BOUND (default: ${DEFAULT-VALUE}).")
    long events = 20_000_000;

    @Option(names = "--window-events", description = "Events per run of q3, q5, q7 (default: ${DEFAULT-VALUE}).")
    long windowEvents = 10_000_000;

    /** q8 makes only persons and auctions, 8 % of the events: as many events as q5 would end in 0.2 s. */
    @Option(
            names = "--join-events",
            description = "Events per run of q8 and its bound, of which 8 % are made (default: ${DEFAULT-VALUE}).")
    long joinEvents = 50_000_000;

    @Option(names = "--event-rate", description = "Events per second of event time (default: ${DEFAULT-VALUE}).")
    double eventRate = 100_000;

    @Option(names = "--runs", description = "Measured runs per point, after one warm-up (default: ${DEFAULT-VALUE}).")
    int runs = 3;

    @Option(
            names = "--latency-seconds",
            description = "Wall-clock length of a latency run, 0: none (default: ${DEFAULT-VALUE}).")
    double latencySeconds = 20;

    @Option(names = "--heap", description = "Each engine JVM's -Xmx (default: ${DEFAULT-VALUE}).")
    String heap = "3g";

    @Option(names = "--out", description = "JSON lines, appended to (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("docs", "benchmarks", "nexmark.jsonl");

    @Option(names = "--child", hidden = true, description = "Run ENGINE in this JVM, printing result lines.")
    Engine child;

    @Option(names = "--latency-rates", hidden = true, split = ",", description = "QUERY@P=events/s: latency runs.")
    Map<String, Double> latencyRates = new LinkedHashMap<>();

    /** Flink's serializers and Hazelcast reach into these JDK packages by reflection. */
    static final List<String> OPENS = List.of(
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            // Hazelcast's own list, for its fast paths into the JDK.
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.management/sun.management=ALL-UNNAMED",
            "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED");

    private static final String PREFIX = "nexmark-result ";

    public static void main(String[] args) {
        System.exit(new CommandLine(new NexmarkBench())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (child != null) {
            runChild(child);
            return 0;
        }
        List<Map<String, Object>> results = new ArrayList<>();
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        // Appended: the results page takes each cell from the last run that measured it.
        try (BufferedWriter log = Files.newBufferedWriter(
                out, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("type", "run");
            run.put("started", java.time.Instant.now().toString());
            run.put("commit", org.fastflowj.bench.figures.Figures.commit());
            run.put("cores", Runtime.getRuntime().availableProcessors());
            run.put("jdk", System.getProperty("java.runtime.version"));
            run.put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            run.put("events", events);
            run.put("windowEvents", windowEvents);
            run.put("joinEvents", joinEvents);
            run.put("eventRate", eventRate);
            line(log, run);
            for (Engine engine : engines) {
                for (Map<String, Object> r : spawn(engine, List.of())) {
                    results.add(r);
                    line(log, r);
                }
            }
            if (latencySeconds > 0) {
                List<String> rates = new ArrayList<>();
                for (Map<String, Object> r : results) {
                    Query q = Query.valueOf((String) r.get("query"));
                    if ("FFJ".equals(r.get("engine")) && "throughput".equals(r.get("metric")) && latencyQuery(q)) {
                        rates.add(q + "@" + r.get("parallelism") + "=" + ((Number) r.get("median")).doubleValue() / 2);
                    }
                }
                if (!rates.isEmpty()) {
                    for (Engine engine : engines) {
                        for (Map<String, Object> r :
                                spawn(engine, List.of("--latency-rates", String.join(",", rates)))) {
                            results.add(r);
                            line(log, r);
                        }
                    }
                }
            }
        }
        System.out.println(table(results));
        System.out.println("results: " + out);
        return 0;
    }

    private static boolean latencyQuery(Query q) {
        return q == Query.Q5 || q == Query.Q7;
    }

    private List<Map<String, Object>> spawn(Engine engine, List<String> extra)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-Xms" + heap);
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.addAll(OPENS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NexmarkBench.class.getName());
        command.add("--child=" + engine);
        command.add(
                "--queries=" + String.join(",", queries.stream().map(Enum::name).toList()));
        command.add("--parallelism="
                + String.join(",", parallelisms.stream().map(String::valueOf).toList()));
        command.add("--events=" + events);
        command.add("--window-events=" + windowEvents);
        command.add("--join-events=" + joinEvents);
        command.add("--event-rate=" + eventRate);
        command.add("--runs=" + runs);
        command.add("--latency-seconds=" + latencySeconds);
        command.addAll(extra);
        System.out.println("== " + engine.title + (extra.isEmpty() ? " throughput" : " latency"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<Map<String, Object>> results = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                if (l.startsWith(PREFIX)) {
                    results.add(parse(l.substring(PREFIX.length())));
                    System.out.println("   " + l.substring(PREFIX.length()));
                } else if (!l.isBlank() && !l.contains("WARNING") && !l.startsWith("SLF4J")) {
                    System.out.println("   | " + l);
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (p.exitValue() != 0) {
            System.out.println("   " + engine + " exited with " + p.exitValue());
        }
        return results;
    }

    private void runChild(Engine engine) throws Exception {
        try {
            if (!latencyRates.isEmpty()) {
                for (Map.Entry<String, Double> e : latencyRates.entrySet()) {
                    String[] qp = e.getKey().split("@");
                    latency(engine, Query.valueOf(qp[0]), Integer.parseInt(qp[1]), e.getValue());
                }
                return;
            }
            for (int parallelism : parallelisms) {
                for (Query q : queries) {
                    throughput(engine, q, parallelism);
                }
            }
        } finally {
            JetNexmark.shutdown();
        }
    }

    private void throughput(Engine engine, Query q, int parallelism) {
        long n =
                q == Query.Q8 || q == Query.Q8_BOUND ? joinEvents : q == Query.Q3 || q.windowed ? windowEvents : events;
        double[] rates = new double[runs];
        for (int rep = -1; rep < runs; rep++) {
            RunSpec spec = new RunSpec(UUID.randomUUID().toString(), q, n, parallelism, eventRate, 0, Tally.Mode.COUNT);
            Tally tally = Tally.open(spec);
            try {
                long nanos = runOn(engine, spec);
                if (rep >= 0) {
                    rates[rep] = n / (nanos / 1e9);
                }
            } catch (Exception e) {
                emit(Map.of(
                        "engine",
                        engine.name(),
                        "query",
                        q.name(),
                        "parallelism",
                        parallelism,
                        "failed",
                        e.toString()));
                return;
            } finally {
                tally.close();
            }
        }
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        Map<String, Object> r = result(engine, q, parallelism, "throughput");
        r.put("events", n);
        r.put("median", sorted[sorted.length / 2]);
        r.put("runs", Arrays.toString(rates));
        r.put("unit", "events/s");
        emit(r);
    }

    /** A result line's first fields: what was measured, on which engine, at which parallelism. */
    private static Map<String, Object> result(Engine engine, Query q, int parallelism, String metric) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("engine", engine.name());
        r.put("query", q.name());
        r.put("parallelism", parallelism);
        r.put("metric", metric);
        return r;
    }

    private void latency(Engine engine, Query q, int parallelism, double rate) throws Exception {
        long n = (long) (rate * latencySeconds);
        RunSpec spec =
                new RunSpec(UUID.randomUUID().toString(), q, n, parallelism, eventRate, rate, Tally.Mode.LATENCY);
        // A short warm-up at the same pace: the JIT, the engine's start, before the measured run.
        RunSpec warm =
                new RunSpec(UUID.randomUUID().toString(), q, n / 4, parallelism, eventRate, rate, Tally.Mode.COUNT);
        Tally warmTally = Tally.open(warm);
        try {
            runOn(engine, warm);
        } finally {
            warmTally.close();
        }
        Tally tally = Tally.open(spec);
        try {
            runOn(engine, spec);
            long[] all = tally.latencies();
            // The first quarter of the run (the pace's start, the JIT) is left out; so is the end of the stream,
            // whose windows fire at the final watermark rather than on time.
            long[] steady = steady(spec, tally);
            Map<String, Object> r = result(engine, q, parallelism, "latency");
            r.put("rate", rate);
            r.put("windows", steady.length);
            r.put("allWindows", all.length);
            r.put("p50", percentile(steady, 0.50) / 1e6);
            r.put("p99", percentile(steady, 0.99) / 1e6);
            r.put("unit", "ms");
            emit(r);
        } finally {
            tally.close();
        }
    }

    private static long[] steady(RunSpec spec, Tally tally) {
        return tally.steadyLatencies(spec.events() / 4, spec.events() * 95 / 100);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static long runOn(Engine engine, RunSpec spec) throws Exception {
        return switch (engine) {
            case FFJ -> FfjNexmark.run(spec);
            case FFJ_CHECKPOINTS -> FfjNexmark.run(spec, java.time.Duration.ofSeconds(1));
            case FLINK -> FlinkNexmark.run(spec);
            case JET -> JetNexmark.run(spec);
        };
    }

    private static void emit(Map<String, Object> r) {
        System.out.println(PREFIX + json(r));
        System.out.flush();
    }

    private static void line(BufferedWriter w, Map<String, Object> r) throws IOException {
        w.write(json(r));
        w.newLine();
        w.flush();
    }

    static String json(Map<String, Object> fields) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(e.getKey()).append("\":");
            Object v = e.getValue();
            if (v instanceof Double d) {
                b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null");
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                b.append('"')
                        .append(String.valueOf(v).replace("\\", "\\\\").replace("\"", "\\\""))
                        .append('"');
            }
        }
        return b.append('}').toString();
    }

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}]+)");

    static Map<String, Object> parse(String json) {
        Map<String, Object> m = new LinkedHashMap<>();
        Matcher f = FIELD.matcher(json);
        while (f.find()) {
            if (f.group(3) != null) {
                m.put(f.group(1), f.group(3).replace("\\\"", "\"").replace("\\\\", "\\"));
            } else if (f.group(2).equals("null")) {
                m.put(f.group(1), Double.NaN);
            } else {
                m.put(f.group(1), Double.parseDouble(f.group(2)));
            }
        }
        if (m.get("parallelism") instanceof Double d) {
            m.put("parallelism", (int) d.doubleValue());
        }
        return m;
    }

    /** The markdown tables: throughput (M events/s) per query and engine, then latency (ms). */
    String table(List<Map<String, Object>> results) {
        StringBuilder b = new StringBuilder();
        for (int parallelism : parallelisms) {
            b.append("\nThroughput at parallelism ")
                    .append(parallelism)
                    .append(", million events/s (median of ")
                    .append(runs)
                    .append(" runs; in brackets: % of the engine's bound)\n\n");
            b.append("| query |");
            engines.forEach(e -> b.append(' ').append(e.title).append(" |"));
            b.append("\n| --- |");
            engines.forEach(e -> b.append(" ---: |"));
            b.append('\n');
            for (Query q : queries) {
                b.append("| ").append(q.name().toLowerCase(Locale.ROOT)).append(" |");
                for (Engine e : engines) {
                    Map<String, Object> r = find(results, e, q, parallelism, "throughput");
                    Map<String, Object> bound = find(results, e, Query.BOUND, parallelism, "throughput");
                    if (r == null) {
                        b.append(" - |");
                        continue;
                    }
                    double v = ((Number) r.get("median")).doubleValue();
                    b.append(String.format(Locale.ROOT, " %.2f", v / 1e6));
                    if (bound != null && q != Query.BOUND) {
                        b.append(String.format(
                                Locale.ROOT, " (%.0f%%)", 100 * v / ((Number) bound.get("median")).doubleValue()));
                    }
                    b.append(" |");
                }
                b.append('\n');
            }
            boolean anyLatency = results.stream().anyMatch(r -> "latency".equals(r.get("metric")));
            if (anyLatency) {
                b.append("\nEvent-time latency at parallelism ")
                        .append(parallelism)
                        .append(
                                ", ms from a window's end to its result, p50 / p99 (paced at half FastFlow-J's throughput)\n\n");
                b.append("| query | events/s |");
                engines.forEach(e -> b.append(' ').append(e.title).append(" |"));
                b.append("\n| --- | ---: |");
                engines.forEach(e -> b.append(" ---: |"));
                b.append('\n');
                for (Query q : queries) {
                    if (!latencyQuery(q)) {
                        continue;
                    }
                    Map<String, Object> first = find(results, engines.get(0), q, parallelism, "latency");
                    if (first == null) {
                        continue;
                    }
                    b.append("| ")
                            .append(q.name().toLowerCase(Locale.ROOT))
                            .append(" | ")
                            .append(String.format(
                                    Locale.ROOT, "%.2f M", ((Number) first.get("rate")).doubleValue() / 1e6))
                            .append(" |");
                    for (Engine e : engines) {
                        Map<String, Object> r = find(results, e, q, parallelism, "latency");
                        b.append(
                                r == null
                                        ? " - |"
                                        : String.format(
                                                Locale.ROOT,
                                                " %.1f / %.1f |",
                                                ((Number) r.get("p50")).doubleValue(),
                                                ((Number) r.get("p99")).doubleValue()));
                    }
                    b.append('\n');
                }
            }
        }
        return b.toString();
    }

    private static Map<String, Object> find(
            List<Map<String, Object>> results, Engine e, Query q, int parallelism, String metric) {
        for (Map<String, Object> r : results) {
            if (e.name().equals(r.get("engine"))
                    && q.name().equals(r.get("query"))
                    && Integer.valueOf(parallelism).equals(r.get("parallelism"))
                    && metric.equals(r.get("metric"))) {
                return r;
            }
        }
        return null;
    }
}
