package org.fastflowj.examples.checkpoints;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpointed windowed job as five group JVMs through the launcher, with checkpoints from the config
 * only: a group killed with SIGKILL at a random moment (a random kind, sometimes twice a run), or stopped
 * with SIGSTOP until its peers give it up (every fourth round), makes the launcher restart every group
 * from the newest checkpoint complete in all of them, and the output file equals the run's without a
 * fault byte for byte. {@code -Dff.killRuns=N} runs N rounds (default 2; the first kills, the fourth
 * stops).
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class CheckpointedGroupsKillTest {
    private static final List<String> GROUPS = List.of("main", "S", "W1", "W2", "C");
    private static final long CLICKS = 60_000;
    private static final double PER_SECOND = 15_000;
    private static final Pattern RESTARTED = Pattern.compile("every group restarted in (\\d+\\.\\d\\d) s");
    private static final Pattern CONNECTED = Pattern.compile("ff-launcher: all groups connected");

    /** Per kill: the group, and the seconds from the kill to every group of the new attempt connected. */
    private final List<String> recoveries = new ArrayList<>();

    @TempDir
    Path dir;

    @Test
    void everyKilledRunWritesTheOutputOfTheRunWithoutAKill() throws Exception {
        Path expected = dir.resolve("expected.csv");
        String quiet = runCluster("quiet", expected, 0, false, new Random(1));
        assertThat(Files.readAllLines(expected)).as(quiet).hasSizeGreaterThan(50);

        int rounds = Integer.getInteger("ff.killRuns", 2);
        Random random = new Random(Long.getLong("ff.killSeed", 42));
        List<String> restartTimes = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            Path out = dir.resolve("out-" + round + ".csv");
            int kills = round % 3 == 2 ? 2 : 1;
            boolean stop = round % 4 == 3 || (round == 1 && rounds == 2);
            String output = runCluster("round-" + round, out, kills, stop, random);
            assertThat(Files.readString(out))
                    .as("round %d, output:%n%s", round, output)
                    .isEqualTo(Files.readString(expected));
            Matcher m = RESTARTED.matcher(output);
            int restarts = 0;
            while (m.find()) {
                restartTimes.add(m.group(1));
                restarts++;
            }
            assertThat(restarts)
                    .as("round %d restarted after each kill:%n%s", round, output)
                    .isEqualTo(kills);
        }
        System.out.println("checkpointed groups: " + rounds + " killed runs; kill to every group started (s) "
                + restartTimes + "; kill to every group connected again: " + recoveries);
    }

    /**
     * One run through the launcher, killing {@code kills} groups at random moments (the first stopped
     * instead, with {@code stop}); the launcher's output.
     */
    private String runCluster(String name, Path out, int kills, boolean stop, Random random) throws Exception {
        Path store = dir.resolve("store-" + name);
        Path config = config(store);
        try (GroupCluster cluster = GroupCluster.start(
                CheckpointedGroupsApp.class,
                config,
                GROUPS,
                Long.toString(CLICKS),
                Double.toString(PER_SECOND),
                out.toString())) {
            for (int k = 0; k < kills; k++) {
                if (!awaitNewCheckpoint(store, newestComplete(store), cluster)) {
                    break; // the run ended first
                }
                Thread.sleep(random.nextInt(1_500));
                String victim = GROUPS.get(random.nextInt(GROUPS.size()));
                Optional<ProcessHandle> jvm = cluster.groupJvm(victim);
                if (jvm.isEmpty()) {
                    break; // the run is ending: the group is gone already
                }
                long killedNs = System.nanoTime();
                if (stop && k == 0) {
                    signal("STOP", jvm.get()); // the peers give it up after heartbeatTimeoutMs; SIGKILL ends it
                    victim = victim + " (SIGSTOP)";
                } else {
                    jvm.get().destroyForcibly();
                }
                awaitRestart(cluster, k + 1);
                awaitCount(CONNECTED, cluster, k + 2); // the first start's, and one per restart
                recoveries.add(String.format(Locale.ROOT, "%s %.2f s", victim, (System.nanoTime() - killedNs) / 1e9));
            }
            assertThat(cluster.awaitExit(300).values()).as(cluster.allOutput()).containsOnly(0);
            return cluster.allOutput();
        }
    }

    private static void signal(String signal, ProcessHandle process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Waits for a checkpoint complete in every group newer than {@code before}; false if the run ended. */
    private static boolean awaitNewCheckpoint(Path store, long before, GroupCluster cluster) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (newestComplete(store) <= before) {
            if (!cluster.launcherAlive()) {
                return false;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no checkpoint within 60 s:\n" + cluster.allOutput());
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static void awaitRestart(GroupCluster cluster, int restarts) throws Exception {
        awaitCount(RESTARTED, cluster, restarts);
    }

    private static void awaitCount(Pattern pattern, GroupCluster cluster, int times) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count(pattern, cluster.allOutput()) < times) {
            if (System.nanoTime() > deadline || !cluster.launcherAlive()) {
                return; // the launcher's exit code and output say why
            }
            Thread.sleep(20);
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

    /** The newest checkpoint every group saved its part of (0: none yet). */
    private static long newestComplete(Path store) throws IOException {
        return GroupCheckpoints.of(store, 3, null, GROUPS).newestComplete();
    }

    private Path config(Path store) throws IOException {
        // A frozen group is given up after 2 s of silence (5 s by default), to keep the test short.
        StringBuilder json = new StringBuilder(
                "{\n  \"batchSize\": 16,\n  \"heartbeatIntervalMs\": 400,\n  \"heartbeatTimeoutMs\": 2000,\n");
        json.append("  \"checkpoints\": {\"directory\": \"")
                .append(store)
                .append("\", \"intervalMs\": 200, \"restart\": {\"attempts\": 3, \"delayMs\": 100}},\n");
        json.append("  \"groups\": [\n");
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < GROUPS.size(); i++) {
            int port = org.fastflowj.testing.FreePorts.next();
            while (ports.contains(port)) {
                port = org.fastflowj.testing.FreePorts.next();
            }
            ports.add(port);
            json.append("    {\"name\": \"").append(GROUPS.get(i)).append("\", \"endpoint\": \"127.0.0.1:");
            json.append(port).append("\"}").append(i + 1 < GROUPS.size() ? ",\n" : "\n");
        }
        Path file = dir.resolve("groups-" + store.getFileName() + ".json");
        Files.writeString(file, json.append("  ]\n}\n"));
        return file;
    }
}
