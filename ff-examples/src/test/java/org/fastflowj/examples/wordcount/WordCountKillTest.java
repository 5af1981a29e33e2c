package org.fastflowj.examples.wordcount;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.fastflowj.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The word count as four group JVMs through the launcher, with checkpoints from the config only (the
 * command line asks for none): a source group, the counters' group and the sink's group, each killed in
 * turn with SIGKILL once every group saved a checkpoint, make the launcher restart every group from the
 * newest complete checkpoint, and the output file equals the run's without a kill.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WordCountKillTest {
    private static final List<String> GROUPS = List.of("G1", "G2", "G0", "GS");
    private static final int LINES = 20_000;
    /** Lines per second per source: each of the two reads its 10,000 lines in some 2.5 s, a dozen checkpoints. */
    private static final double RATE = 4_000;

    private static final Pattern RESTARTED = Pattern.compile("every group restarted in (\\d+\\.\\d\\d) s");

    @TempDir
    Path dir;

    @Test
    void aKilledGroupIsRestartedWithEveryOtherAndTheCountsAreTheRunsWithoutAKill() throws Exception {
        Path input = dir.resolve("tweets.txt");
        AppRunner gen = AppRunner.run(
                "wordcount-gen", "--lines", Integer.toString(LINES), "--seed", "31", "--output", input.toString());
        assertThat(gen.exitCode).as(gen.toString()).isZero();
        Path expected = dir.resolve("expected.tsv");
        runCluster("quiet", input, expected, null, new Random(0));
        assertThat(Files.readAllLines(expected, UTF_8)).isEqualTo(WordCountTest.sequentialCounts(input));

        Random random = new Random(Long.getLong("ff.killSeed", 7));
        List<String> restarts = new ArrayList<>();
        for (String victim : List.of("G1", "G0", "GS")) {
            Path out = dir.resolve("killed-" + victim + ".tsv");
            String output = runCluster("kill-" + victim, input, out, victim, random);
            assertThat(Files.readString(out, UTF_8))
                    .as("%s killed; output:%n%s", victim, output)
                    .isEqualTo(Files.readString(expected, UTF_8));
            assertThat(count(RESTARTED, output))
                    .as("%s killed, one restart:%n%s", victim, output)
                    .isEqualTo(1);
        }
    }

    /** One run through the launcher, killing {@code victim} (unless null) once every group saved a checkpoint. */
    private String runCluster(String name, Path input, Path out, String victim, Random random) throws Exception {
        Path store = dir.resolve("store-" + name);
        try (GroupCluster cluster = GroupCluster.start(
                config(name, store),
                GROUPS,
                "wordcount",
                "--input",
                input.toString(),
                "--sources",
                "2",
                "--rate",
                Double.toString(RATE),
                "--output",
                out.toString())) {
            if (victim != null) {
                awaitCheckpointInEveryGroup(store, cluster);
                Thread.sleep(random.nextInt(300));
                ProcessHandle jvm = cluster.groupJvm(victim)
                        .orElseThrow(() -> new AssertionError(victim + " not running:\n" + cluster.allOutput()));
                jvm.destroyForcibly();
            }
            assertThat(cluster.awaitExit(120).values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(cluster.output("GS")).as(cluster.allOutput()).contains("wordcount: " + LINES + " lines");
            return cluster.allOutput();
        }
    }

    private static void awaitCheckpointInEveryGroup(Path store, GroupCluster cluster) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!GROUPS.stream().allMatch(g -> hasCheckpoint(store.resolve(g)))) {
            if (System.nanoTime() > deadline || !cluster.launcherAlive()) {
                throw new AssertionError("no checkpoint in every group:\n" + cluster.allOutput());
            }
            Thread.sleep(10);
        }
    }

    private static boolean hasCheckpoint(Path groupDir) {
        if (!Files.isDirectory(groupDir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(groupDir)) {
            return files.anyMatch(f -> f.getFileName().toString().matches("chk-\\d+\\.ffcp"));
        } catch (IOException e) {
            return false; // the directory is being written: look again
        }
    }

    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private Path config(String name, Path store) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"protocol\": \"TCP\",\n  \"batchSize\": 32,\n");
        json.append("  \"checkpoints\": {\"directory\": \"")
                .append(store)
                .append("\", \"intervalMs\": 200, \"restart\": {\"attempts\": 3, \"delayMs\": 100}},\n");
        json.append("  \"groups\": [\n");
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < GROUPS.size(); i++) {
            int port = FreePorts.next();
            while (ports.contains(port)) {
                port = FreePorts.next();
            }
            ports.add(port);
            json.append("    {\"name\": \"").append(GROUPS.get(i)).append("\", \"endpoint\": \"127.0.0.1:");
            json.append(port).append("\"}").append(i + 1 < GROUPS.size() ? ",\n" : "\n");
        }
        Path file = dir.resolve("wordcount-" + name + ".json");
        Files.writeString(file, json.append("  ]\n}\n"));
        return file;
    }
}
