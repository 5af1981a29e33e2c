package org.fastflowj.bench.figures;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

/**
 * Fig. 11's baseline: the same word count on Apache Flink's local MiniCluster (DataStream API, batch
 * execution mode, a {@code FileSource} of text lines): lines of a file, split into maximal runs of non-whitespace characters as ff-examples'
 * {@code Splitter} does, keyed by word, summed. Runs in a child JVM ({@link #runInChildJvm}) so that
 * Flink's threads, memory and JDK flags stay out of the figures' JVM; the child prints the job's net run
 * time (MiniCluster start-up excluded) and writes {@code word<TAB>count} lines sorted by word.
 */
public final class FlinkWordCount {
    private static final Pattern RESULT = Pattern.compile("flink-wordcount: (\\d+) lines in (\\d+) ms");

    /** Flink's serializers reach into these JDK packages by reflection (Flink's own launch scripts open them). */
    private static final List<String> OPENS = List.of(
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED");

    private FlinkWordCount() {}

    /** {@code FlinkWordCount INPUT PARALLELISM OUTPUT} */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FlinkWordCount INPUT PARALLELISM OUTPUT");
            System.exit(2);
        }
        Path input = Path.of(args[0]);
        int parallelism = Integer.parseInt(args[1]);
        Path output = Path.of(args[2]);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        FileSource<String> file = FileSource.forRecordStreamFormat(
                        new TextLineInputFormat(), new org.apache.flink.core.fs.Path(input.toUri()))
                .build();
        var lines = env.fromSource(file, WatermarkStrategy.noWatermarks(), "tweets");
        CloseableIterator<Tuple2<String, Long>> counts = lines.flatMap(FlinkWordCount::split)
                .returns(Types.TUPLE(Types.STRING, Types.LONG))
                .keyBy(t -> t.f0)
                .sum(1)
                .collectAsync();
        JobClient job = env.executeAsync("ff-bench word count");
        Map<String, Long> total = new TreeMap<>();
        try (counts) {
            while (counts.hasNext()) {
                Tuple2<String, Long> t = counts.next();
                total.put(t.f0, t.f1);
            }
        }
        long netMillis = job.getJobExecutionResult().get().getNetRuntime(TimeUnit.MILLISECONDS);
        try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, Long> e : total.entrySet()) {
                w.write(e.getKey() + "\t" + e.getValue() + "\n");
            }
        }
        long lineCount;
        try (var stream = Files.lines(input, StandardCharsets.UTF_8)) {
            lineCount = stream.count();
        }
        System.out.println("flink-wordcount: " + lineCount + " lines in " + netMillis + " ms");
    }

    private static void split(String line, Collector<Tuple2<String, Long>> out) {
        int n = line.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.collect(Tuple2.of(line.substring(start, i), 1L));
            }
        }
    }

    /** Runs the word count in a child JVM on this JVM's class path; returns lines per second of the job's run time. */
    static double runInChildJvm(Path input, int parallelism, Path output, Scale scale)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(scale == Scale.SMOKE ? "-Xmx256m" : "-Xmx1g");
        if (scale == Scale.SMOKE) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.addAll(OPENS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FlinkWordCount.class.getName());
        command.add(input.toString());
        command.add(Integer.toString(parallelism));
        command.add(output.toString());
        Path log = output.resolveSibling("flink-" + parallelism + ".log");
        Process child = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!child.waitFor(scale == Scale.PAPER ? 1800 : 300, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "Flink word count (parallelism " + parallelism + ") did not end; log: " + log);
            }
            String printed = Files.readString(log, StandardCharsets.UTF_8);
            Matcher m = RESULT.matcher(printed);
            if (child.exitValue() != 0 || !m.find()) {
                throw new IllegalStateException("Flink word count (parallelism " + parallelism + ") failed, exit "
                        + child.exitValue() + "; log: " + log);
            }
            return Long.parseLong(m.group(1)) / (Math.max(1, Long.parseLong(m.group(2))) / 1e3);
        } finally {
            child.destroyForcibly();
        }
    }
}
