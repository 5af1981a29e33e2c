package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.apps.RecoveryProcessTest.awaitLine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each group a real JVM: a recoverable on-demand all-to-all whose R-Workers 1, 2 and 3 run in groups W1, W2
 * and W3 loses one of them mid-run (kill -9) and still gives the one-process result, every task answered
 * exactly once; the groups left exit 0, and group L names the lost group. Not recoverable, the same loss
 * fails the run fast, naming the group.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AllToAllRecoveryProcessTest {
    private static final int ITEMS = 1200;
    private static final String WORK_MICROS = "2000";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"W1", "W3"})
    void shouldFinishWithTheOneProcessResultWhenAnRWorkerGroupIsKilled(String victim) throws Exception {
        String expected = RecoverableAllToAllApp.run(ITEMS, 0, true);
        assertThat(expected).isEqualTo(oneOfEach(ITEMS));
        Path config = ProcessCluster.config(dir, RecoverableAllToAllApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = start(config, true)) {
            awaitLine(cluster, "L", "progress");
            long killedNs = System.nanoTime();
            cluster.process(victim).destroyForcibly(); // kill -9
            awaitLine(cluster, "L", "DFF_LOST: " + victim);
            long detectedNs = System.nanoTime();

            Map<String, Integer> codes = cluster.awaitExit(120);
            System.out.printf(
                    "all-to-all recovery from kill -9 of %s: lost after %d ms, run ended %d ms after the kill%n",
                    victim,
                    TimeUnit.NANOSECONDS.toMillis(detectedNs - killedNs),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));

            String logs = cluster.allOutput();
            // Mid-run the lost R-Worker had items in hand (the one it was working on, at least): sent again.
            Matcher handedBack = Pattern.compile("group " + victim + " lost: ([0-9]+) unanswered item\\(s\\)[^\n]*")
                    .matcher(cluster.output("L"));
            int sentAgain = 0;
            while (handedBack.find()) {
                sentAgain += Integer.parseInt(handedBack.group(1));
                System.out.println("  " + handedBack.group());
            }
            assertThat(sentAgain).as(logs).isPositive();
            for (String g : RecoverableAllToAllApp.GROUPS) {
                if (!g.equals(victim)) {
                    assertThat(codes.get(g)).as(g + "\n" + logs).isZero();
                }
            }
            assertThat(cluster.output("L"))
                    .as(logs)
                    .contains("RESULT: " + expected + "\n")
                    .contains("DFF_LOSABLE: W1,W2,W3\n")
                    .contains("DFF_LOST: " + victim + "\n")
                    .contains("group L lost group " + victim)
                    .doesNotContain("DFF_FAILED");
        }
    }

    /**
     * An R-Worker group killed at each stage of an item's trip, each stage reached for sure: the
     * group stops there and says so ({@link RecoverableAllToAllApp.Stage}), and the test kills it then. Items
     * queued for it, on the wire and in its hands; a result on its way back; every item answered and its end
     * sent (its second link closing after the loss made every group's end heard must not fail the run); results handed to the sink and not taken yet. Each
     * time: the one-process result, the groups left exit 0, and the home group's books balance (else it
     * fails, saying so).
     */
    @ParameterizedTest(name = "kill {1} at {0}")
    @CsvSource({"in-worker, W2", "after-answer, W1", "answered-all, W3", "sink-held, W2"})
    void shouldGiveTheOneProcessResultWhenAnRWorkerGroupIsKilledAtEachStageOfAnItemsTrip(String stage, String victim)
            throws Exception {
        String expected = oneOfEach(ITEMS);
        String stopped = stage.equals("sink-held") ? "L" : victim;
        Path config = ProcessCluster.config(dir, RecoverableAllToAllApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = ProcessCluster.start(
                RecoverableAllToAllApp.class,
                config,
                RecoverableAllToAllApp.GROUPS,
                List.of(),
                Map.of(stopped, Map.of(RecoverableAllToAllApp.STAGE, stage)),
                Integer.toString(ITEMS),
                WORK_MICROS,
                "true")) {
            awaitLine(cluster, stopped, "STAGE: " + stage);
            long killedNs = System.nanoTime();
            cluster.process(victim).destroyForcibly(); // kill -9
            awaitLine(cluster, "L", "DFF_LOST: " + victim);

            Map<String, Integer> codes = cluster.awaitExit(120);
            System.out.printf(
                    "all-to-all: %s killed at %s, run ended %d ms after the kill%n",
                    victim, stage, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));
            String logs = cluster.allOutput();
            for (String g : RecoverableAllToAllApp.GROUPS) {
                if (!g.equals(victim)) {
                    assertThat(codes.get(g)).as(g + "\n" + logs).isZero();
                }
            }
            assertThat(cluster.output("L"))
                    .as(logs)
                    .contains("RESULT: " + expected + "\n")
                    .contains("DFF_LOST: " + victim + "\n")
                    .doesNotContain("DFF_FAILED", "books do not balance");
        }
    }

    @Test
    void shouldGiveTheOneProcessResultWithNoGroupLost() throws Exception {
        String expected = RecoverableAllToAllApp.run(ITEMS, 0, true);
        Path config = ProcessCluster.config(dir, RecoverableAllToAllApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = start(config, true)) {
            Map<String, Integer> codes = cluster.awaitExit(120);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code == 0);
            assertThat(cluster.output("L"))
                    .as(cluster.allOutput())
                    .contains("RESULT: " + expected + "\n")
                    .contains("DFF_LOSABLE: W1,W2,W3\n")
                    .doesNotContain("DFF_LOST");
        }
    }

    @Test
    void shouldFailFastWhenAnRWorkerGroupOfAnAllToAllWithoutRecoveryIsKilled() throws Exception {
        Path config = ProcessCluster.config(dir, RecoverableAllToAllApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = start(config, false)) {
            awaitLine(cluster, "L", "progress");
            cluster.process("W2").destroyForcibly();

            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            assertThat(cluster.output("L"))
                    .as(cluster.allOutput())
                    .contains("DFF_FAILED: W2\n")
                    .doesNotContain("DFF_LOSABLE", "DFF_LOST", "RESULT:");
        }
    }

    /** What the sink reports when every task 0..items-1 was answered once. */
    private static String oneOfEach(int items) {
        long sum = 0;
        for (long t = 0; t < items; t++) {
            sum += t * t;
        }
        return "tasks=" + items + " results=" + items + " sum=" + sum + " duplicates=0";
    }

    private static ProcessCluster start(Path config, boolean recoverable) throws java.io.IOException {
        return ProcessCluster.start(
                RecoverableAllToAllApp.class,
                config,
                RecoverableAllToAllApp.GROUPS,
                List.of(),
                Integer.toString(ITEMS),
                WORK_MICROS,
                Boolean.toString(recoverable));
    }
}
