package org.fastflowj.bench.figures;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.examples.masterworker.MasterWorker;
import org.fastflowj.examples.wordcount.TweetGenerator;
import org.fastflowj.examples.wordcount.WordCount;

/**
 * The 2022 paper's Fig. 10 (master-worker: speed-up and the local/remote split per grain) and Fig. 11 (word
 * count as source groups grow, beside Apache Flink's local MiniCluster on the same file), from the examples
 * of ff-examples: every group in this JVM on loopback, and, with the emulated cluster up, each group a
 * process on one of its hosts, started by ff-launcher ({@link ClusterGroups}).
 */
final class GroupFigures {
    private static final SerializationConfig EXAMPLES =
            SerializationConfig.builder().allowPackage("org.fastflowj.examples").build();

    private GroupFigures() {}

    private static final Pattern GROUP_TASKS = Pattern.compile("G(\\d+): (\\d+) tasks");

    static final Figure MASTER_WORKER = new Figure() {
        @Override
        public String name() {
            return "fig10-master-worker";
        }

        @Override
        public void run(Context c) throws Exception {
            int groups = 2;
            int workersPerGroup = 2;
            int workers = groups * workersPerGroup;
            double ideal = Math.min(workers, Runtime.getRuntime().availableProcessors());
            for (double grainMs : c.scale().masterWorkerGrainsMs) {
                int tasks = masterWorkerTasks(c.scale(), grainMs, workers);
                for (int rep = 0; rep < c.scale().repetitions; rep++) {
                    ByteArrayOutputStream text = new ByteArrayOutputStream();
                    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
                    long start = System.nanoTime();
                    LocalGroups.run(
                            MasterWorker.build(tasks, Math.round(grainMs * 1e6), groups, workersPerGroup, out),
                            List.of("G0", "G1"),
                            "1",
                            EXAMPLES,
                            600);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    long[] perGroup = tasksPerGroup(text.toString(StandardCharsets.UTF_8), groups);
                    if (perGroup[0] + perGroup[1] != tasks) {
                        throw new IllegalStateException(
                                "master-worker at " + grainMs + " ms: " + (perGroup[0] + perGroup[1]) + " of " + tasks
                                        + " tasks came back; the master printed: " + text);
                    }
                    double speedUp = tasks * grainMs / 1e3 / seconds;
                    c.log()
                            .point(
                                    name(),
                                    "speed-up (" + workers + " workers in " + groups + " groups)",
                                    grainMs,
                                    rep,
                                    speedUp,
                                    "work / time");
                    c.log()
                            .point(
                                    name() + "-split",
                                    "share of tasks run by the remote group G1",
                                    grainMs,
                                    rep,
                                    perGroup[1] / (double) tasks,
                                    "share");
                }
            }
            if (c.clusterPrefix() != null) {
                masterWorkerShaped(c, name(), groups, workersPerGroup);
            } else {
                c.log()
                        .note(
                                name(),
                                "no emulated cluster (cluster.sh up 2, then --cluster ffj): shaped-link rows skipped");
            }
            c.log()
                    .note(
                            name(),
                            "ideal speed-up " + ideal + ": " + workers + " workers on "
                                    + Runtime.getRuntime().availableProcessors()
                                    + " cores; group start-up is inside the time");
            c.plots()
                    .lines(
                            name(),
                            "Fig. 10: master-worker speed-up per grain",
                            "grain (ms)",
                            "speed-up",
                            true,
                            false,
                            Plots.medians(c.log().points(name())),
                            Map.of("ideal", ideal));
            c.plots()
                    .lines(
                            name() + "-split",
                            "Fig. 10: tasks run by the remote group",
                            "grain (ms)",
                            "share of tasks",
                            true,
                            false,
                            Plots.medians(c.log().points(name() + "-split")),
                            Map.of("even split", 0.5));
        }
    };

    private static final Pattern MASTER_TIME = Pattern.compile("time: ([0-9.]+) s");

    /** Tasks per run at a grain: about the same work at every grain, never below 4 per worker. */
    private static int masterWorkerTasks(Scale scale, double grainMs, int workers) {
        return (int) Math.max(4L * workers, Math.round(scale.masterWorkerTasks * 0.5 / grainMs));
    }

    /**
     * Fig. 10 on the emulated cluster, started by ff-launcher: the master's group G0 on host 1, G1 on host 2,
     * so every task G1 runs, and its result, cross the shaped link. The time is the master's, from its
     * group's start to the last result.
     */
    private static void masterWorkerShaped(Context c, String figure, int groups, int workersPerGroup) throws Exception {
        ClusterGroups cluster =
                new ClusterGroups(c.clusterPrefix(), c.scratch(), c.scale() == Scale.PAPER ? 1800 : 600);
        int workers = groups * workersPerGroup;
        int repetitions = c.scale() == Scale.PAPER ? c.scale().repetitions : 1;
        List<ClusterGroups.Placement> placements = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            placements.add(new ClusterGroups.Placement("G" + g, 1 + g % 2));
        }
        for (double grainMs : c.scale().masterWorkerGrainsMs) {
            int tasks = masterWorkerTasks(c.scale(), grainMs, workers);
            for (int rep = 0; rep < repetitions; rep++) {
                String printed = cluster.run(
                        figure,
                        placements,
                        "1",
                        List.of(
                                "masterworker",
                                "--tasks",
                                Integer.toString(tasks),
                                "--grain-ms",
                                Double.toString(grainMs),
                                "--workers",
                                Integer.toString(workersPerGroup),
                                "--groups",
                                Integer.toString(groups)));
                long[] perGroup = tasksPerGroup(printed, groups);
                Matcher time = MASTER_TIME.matcher(printed);
                if (perGroup[0] + perGroup[1] != tasks || !time.find()) {
                    throw new IllegalStateException("master-worker on the cluster at " + grainMs + " ms: "
                            + (perGroup[0] + perGroup[1]) + " of " + tasks
                            + " tasks came back; the launcher printed: " + printed);
                }
                double seconds = Double.parseDouble(time.group(1));
                c.log()
                        .point(
                                figure,
                                "speed-up, shaped cluster (" + workers + " workers in " + groups + " groups)",
                                grainMs,
                                rep,
                                tasks * grainMs / 1e3 / seconds,
                                "work / time");
                c.log()
                        .point(
                                figure + "-split",
                                "share of tasks run by G1 on the other host (shaped cluster)",
                                grainMs,
                                rep,
                                perGroup[1] / (double) tasks,
                                "share");
            }
        }
        c.log()
                .note(
                        figure,
                        "shaped cluster rows: groups started by ff-launcher (host netns:" + c.clusterPrefix()
                                + "1 for G0, netns:" + c.clusterPrefix() + "2 for G1), one JVM per group; the"
                                + " time is the master's");
    }

    private static long[] tasksPerGroup(String printed, int groups) {
        long[] perGroup = new long[groups];
        Matcher m = GROUP_TASKS.matcher(printed);
        while (m.find()) {
            perGroup[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2));
        }
        return perGroup;
    }

    private static final Pattern WORDCOUNT = Pattern.compile(
            "wordcount: (\\d+) lines, (\\d+) words, (\\d+) distinct in" + " ([0-9.]+) s: ([0-9.]+) lines/s");

    static final Figure WORD_COUNT = new Figure() {
        @Override
        public String name() {
            return "fig11-wordcount";
        }

        @Override
        public void run(Context c) throws Exception {
            Path input = c.scratch().resolve("tweets.txt");
            writeTweets(input, c.scale().wordCountLines);
            Path reference = null;
            for (int sources : c.scale().wordCountSources) {
                for (int rep = 0; rep < c.scale().repetitions; rep++) {
                    Path counts = c.scratch().resolve("ffj-counts-" + sources + ".tsv");
                    double oneProcess = wordCount(input, sources, counts, false);
                    reference = checkSame(reference, counts, "FF-J, one process, " + sources + " sources");
                    double grouped = wordCount(input, sources, counts, true);
                    checkSame(reference, counts, "FF-J, " + sources + " source groups");
                    c.log().point(name(), "FF-J one process", sources, rep, oneProcess, "lines/s");
                    c.log().point(name(), "FF-J source groups (loopback)", sources, rep, grouped, "lines/s");
                }
            }
            if (c.clusterPrefix() != null) {
                wordCountShaped(c, name(), input, reference);
            } else {
                c.log()
                        .note(
                                name(),
                                "no emulated cluster (cluster.sh up 2, then --cluster ffj): shaped-link rows skipped");
            }
            for (int parallelism : List.of(1, 2)) {
                for (int rep = 0; rep < c.scale().flinkRepetitions(); rep++) {
                    Path counts = c.scratch().resolve("flink-counts-" + parallelism + ".tsv");
                    double rate = FlinkWordCount.runInChildJvm(input, parallelism, counts, c.scale());
                    checkSame(reference, counts, "Flink, parallelism " + parallelism);
                    c.log().point(name(), "Flink MiniCluster", parallelism, rep, rate, "lines/s");
                }
            }
            c.log()
                    .note(
                            name(),
                            "every word count checked equal to the first FF-J run's; Flink's rate excludes its"
                                    + " MiniCluster start (the job's net run time), FF-J's its thread start; x is source groups for"
                                    + " FF-J and parallelism for Flink");
            c.plots()
                    .lines(
                            name(),
                            "Fig. 11: word count, " + c.scale().wordCountLines + " generated tweets",
                            "sources (FF-J) / parallelism (Flink)",
                            "lines/s",
                            false,
                            true,
                            Plots.medians(c.log().points(name())),
                            Map.of());
        }
    };

    /**
     * Fig. 11 on the emulated cluster, started by ff-launcher: the source groups G1..Gk on host 1, the
     * counters' group G0 and the sink's GS on host 2, so every word crosses the shaped link; the counts are
     * checked equal to the reference.
     */
    private static void wordCountShaped(Context c, String figure, Path input, Path reference) throws Exception {
        ClusterGroups cluster =
                new ClusterGroups(c.clusterPrefix(), c.scratch(), c.scale() == Scale.PAPER ? 1800 : 600);
        int repetitions = c.scale() == Scale.PAPER ? c.scale().repetitions : 1;
        for (int sources : c.scale().wordCountSources) {
            List<ClusterGroups.Placement> groups = new ArrayList<>();
            for (int i = 1; i <= sources; i++) {
                groups.add(new ClusterGroups.Placement("G" + i, 1));
            }
            groups.add(new ClusterGroups.Placement("G0", 2));
            groups.add(new ClusterGroups.Placement("GS", 2));
            for (int rep = 0; rep < repetitions; rep++) {
                Path counts = c.scratch().resolve("cluster-counts-" + sources + ".tsv");
                Files.deleteIfExists(counts);
                String printed = cluster.run(
                        figure,
                        groups,
                        "32",
                        List.of(
                                "wordcount",
                                "--input",
                                input.toString(),
                                "--sources",
                                Integer.toString(sources),
                                "--output",
                                counts.toString()));
                Matcher m = WORDCOUNT.matcher(printed);
                if (!m.find()) {
                    throw new IllegalStateException("word count on the cluster printed no summary: " + printed);
                }
                checkSame(reference, counts, "FF-J on the shaped cluster, " + sources + " source groups");
                c.log()
                        .point(
                                figure,
                                "FF-J source groups (shaped cluster)",
                                sources,
                                rep,
                                Double.parseDouble(m.group(5)),
                                "lines/s");
            }
        }
        c.log()
                .note(
                        figure,
                        "shaped cluster rows: groups started by ff-launcher, sources on host netns:"
                                + c.clusterPrefix() + "1, counters and sink on netns:" + c.clusterPrefix()
                                + "2, one JVM per group");
    }

    /** Runs the word count once and returns its lines per second; writes the counts to {@code counts}. */
    static double wordCount(Path input, int sources, Path counts, boolean asGroups) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        var program = WordCount.build(sources, input, null, 0, counts, out);
        if (asGroups) {
            List<String> groups = new ArrayList<>();
            for (int i = 1; i <= sources; i++) {
                groups.add("G" + i);
            }
            groups.add("G0");
            groups.add("GS");
            LocalGroups.run(program, groups, "32", EXAMPLES, 600);
        } else {
            program.runAndWaitEnd(RunOptions.defaults());
        }
        Matcher m = WORDCOUNT.matcher(text.toString(StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalStateException("word count printed no summary: " + text);
        }
        return Double.parseDouble(m.group(5));
    }

    /** The first counts become the reference; every later one must be byte for byte the same. */
    static Path checkSame(Path reference, Path counts, String what) throws IOException {
        if (reference == null) {
            Path kept = counts.resolveSibling("reference-counts.tsv");
            Files.copy(counts, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return kept;
        }
        long mismatch = Files.mismatch(reference, counts);
        if (mismatch != -1) {
            throw new IllegalStateException(
                    what + ": its word counts (" + counts + ") differ from " + reference + " at byte " + mismatch);
        }
        return reference;
    }

    static void writeTweets(Path file, int lines) throws IOException {
        TweetGenerator generator = new TweetGenerator(2022);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < lines; i++) {
                w.write(generator.nextLine());
                w.newLine();
            }
        }
    }
}
