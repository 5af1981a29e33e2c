package org.fastflowj.examples.clickwindows;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.GroupCluster;
import org.fastflowj.stream.JobStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream job spread over four JVMs (S: the source, W: the windows, C: a copy stage with the sink and
 * the side sinks, main: the entry nodes between them) writes the files the one-process run writes: the
 * output, the late records, and the dead letters, whose errors crossed from W to C.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class StreamGroupShapesTest {
    private static final long CLICKS = 20_000;

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheOneProcessRunsOutputAndSideRecordsWithEveryStageInAnotherGroupProcess() throws Exception {
        Path wholeOut = dir.resolve("whole.csv");
        Path wholeLate = dir.resolve("whole-late.txt");
        Path wholeDead = dir.resolve("whole-dead.txt");
        DFF.reset();
        DFF.checkSerialization(true); // every item through the serializer, as across groups
        // The groups' processes admit Click as a class of their main class's package; this JVM's main is not it.
        DFF.register(StreamGroupShapesApp.Click.class);
        JobStats whole;
        try {
            whole = StreamGroupShapesApp.run(CLICKS, wholeOut, wholeLate, wholeDead);
        } finally {
            DFF.reset();
        }
        assertThat(whole.totalLateRecords()).isPositive();

        Path out = dir.resolve("split.csv");
        Path late = dir.resolve("split-late.txt");
        Path dead = dir.resolve("split-dead.txt");
        List<String> groups = List.of("main", "S", "W", "C");
        Path config = config(groups);
        try (GroupCluster cluster = GroupCluster.start(
                StreamGroupShapesApp.class,
                config,
                groups,
                Long.toString(CLICKS),
                out.toString(),
                late.toString(),
                dead.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(120);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            // The late records are counted where the windows run.
            assertThat(cluster.output("W")).isEqualTo("late " + whole.totalLateRecords() + "\n");
            assertThat(cluster.output("main") + cluster.output("S") + cluster.output("C"))
                    .isEqualTo("late 0\n".repeat(3));
        }
        assertThat(sorted(out)).isNotEmpty().isEqualTo(sorted(wholeOut)).allMatch(l -> l.startsWith("copy,"));
        assertThat(sorted(late)).hasSize((int) whole.totalLateRecords()).isEqualTo(sorted(wholeLate));
        assertThat(sorted(dead))
                .hasSize(whole.deadLetters().getOrDefault("format", 0L).intValue())
                .isNotEmpty()
                .allMatch(line ->
                        line.startsWith("format\t") && line.contains("\tjava.lang.IllegalArgumentException: second "))
                .isEqualTo(sorted(wholeDead));
        try (var files = Files.list(dir)) { // the groups that hold no sink left no temporary file
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "whole.csv",
                            "whole-late.txt",
                            "whole-dead.txt",
                            "split.csv",
                            "split-late.txt",
                            "split-dead.txt",
                            "groups.json");
        }
    }

    @Test
    void shouldJoinInAnotherGroupProcessAsInOne() throws Exception {
        Path wholeOut = dir.resolve("whole.csv");
        DFF.reset();
        DFF.checkSerialization(true);
        DFF.register(StreamGroupShapesApp.Click.class);
        try {
            StreamGroupShapesApp.join(4_000, wholeOut);
        } finally {
            DFF.reset();
        }

        Path out = dir.resolve("split.csv");
        List<String> groups = List.of("main", "J");
        try (GroupCluster cluster = GroupCluster.start(
                StreamGroupShapesApp.class, config(groups), groups, "join", "4000", out.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(120);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
        }
        assertThat(sorted(out)).hasSizeGreaterThan(1_000).isEqualTo(sorted(wholeOut));
    }

    private Path config(List<String> groups) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"batchSize\": 16,\n  \"groups\": [\n");
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            int port = freePort();
            while (ports.contains(port)) {
                port = freePort();
            }
            ports.add(port);
            json.append("    {\"name\": \"").append(groups.get(i)).append("\", \"endpoint\": \"127.0.0.1:");
            json.append(port).append("\"}").append(i + 1 < groups.size() ? ",\n" : "\n");
        }
        Path file = dir.resolve("groups.json");
        Files.writeString(file, json.append("  ]\n}\n"));
        return file;
    }

    private static int freePort() throws IOException {
        return org.fastflowj.testing.FreePorts.next();
    }

    private static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }
}
