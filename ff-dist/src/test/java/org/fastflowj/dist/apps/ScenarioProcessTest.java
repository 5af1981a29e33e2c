package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DFF;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every topology of the proof, each group its own JVM on loopback, gives the result of the same program
 * run in one process (computed here, in the test's JVM): pipelines cut in 2 and 3 groups, the Fig. 5
 * application, a by-key word count, vertical and horizontal all-to-all cuts (with 2-message batches and one
 * credit for the vertical one), a loop inside a group and a loop across groups.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ScenarioProcessTest {
    @TempDir
    Path dir;

    @AfterEach
    void reset() {
        DFF.reset();
    }

    private static String oneProcess(String scenario) {
        StringBuilder result = new StringBuilder();
        ScenarioApp.build(scenario, result).runAndWaitEnd();
        return "result: " + result;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "pipeline2",
                "pipeline3",
                "fig5",
                "wordcount",
                "vertical",
                "horizontal",
                "loopInside",
                "loopAcross"
            })
    void shouldGiveTheOneProcessResultWithEachGroupInItsOwnProcess(String scenario) throws Exception {
        String expected = oneProcess(scenario);
        List<String> groups = ScenarioApp.GROUPS.get(scenario);
        String tuning = scenario.equals("vertical") ? "\"batchSize\": 2, \"messageOTF\": 1" : "\"batchSize\": 8";
        Path config = ProcessCluster.config(dir, groups, tuning);

        try (ProcessCluster cluster = ProcessCluster.start(ScenarioApp.class, config, groups, List.of(), scenario)) {
            Map<String, Integer> codes = cluster.awaitExit(75);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String printer = ScenarioApp.PRINTER.get(scenario);
            assertThat(cluster.output(printer)).as(cluster.allOutput()).contains(expected + "\n");
            for (String g : groups) {
                if (!g.equals(printer)) {
                    assertThat(cluster.output(g)).doesNotContain("result:");
                }
            }
        }
    }
}
