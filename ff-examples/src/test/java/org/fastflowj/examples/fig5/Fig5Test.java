package org.fastflowj.examples.fig5;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class Fig5Test {
    private static final List<String> GROUPS = List.of("G1", "G2", "G3", "G4");
    private static final Pattern PER_WORKER = Pattern.compile("^R(\\d): (\\d+) items$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    /** The per-R-Worker counts printed, in order. */
    private static List<Long> perWorker(String out) {
        List<Long> counts = new ArrayList<>();
        Matcher m = PER_WORKER.matcher(out);
        while (m.find()) {
            counts.add(Long.parseLong(m.group(2)));
        }
        return counts;
    }

    @Test
    void shouldDeliverEveryItemOnceThroughTheFourRWorkers() {
        AppRunner run = AppRunner.run("fig5", "--items", "20000");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("total: 20000 items (sent 20000, lost 0, duplicated 0)");
        assertThat(perWorker(run.out)).hasSize(4).allSatisfy(n -> assertThat(n).isPositive());
        assertThat(perWorker(run.out).stream().mapToLong(Long::longValue).sum()).isEqualTo(20_000);
        assertThat(run.out).containsPattern("time: [0-9.]+ s");
    }

    @Test
    void shouldPrintTheNodeTableOnStderrWithStats() {
        AppRunner run = AppRunner.run("fig5", "--items", "2000", "--stats");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.err).contains("node", "items in", "items out", "wait in ms", "wait out ms");
        // every item reaches exactly one R-Worker: the table's rows for them add up to the items sent
        assertThat(run.err.lines().filter(l -> l.contains("2000")).count())
                .as(run.err)
                .isPositive();
        assertThat(run.out).doesNotContain("items in");
    }

    @Test
    void shouldPrintNoNodeTableWithoutStats() {
        AppRunner run = AppRunner.run("fig5", "--items", "200");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.err).doesNotContain("items in");
    }

    @Test
    void shouldRejectANegativeItemCount() {
        AppRunner run = AppRunner.run("fig5", "--items", "-1");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--items").doesNotContain("Exception");
    }

    @Test
    void shouldGiveTheSameTotalsAsFourGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("fig5", dir);
        try (GroupCluster cluster = GroupCluster.start(config, GROUPS, "fig5", "--items", "20000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String sink = cluster.output("G4");
            assertThat(sink).as(cluster.allOutput()).contains("total: 20000 items (sent 20000, lost 0, duplicated 0)");
            assertThat(perWorker(sink)).hasSize(4).allSatisfy(n -> assertThat(n).isPositive());
            for (String g : List.of("G1", "G2", "G3")) {
                assertThat(cluster.output(g)).as(g + " prints nothing").isEmpty();
            }
        }
    }
}
