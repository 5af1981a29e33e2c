package org.fastflowj.examples.clickwindows;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fastflowj.stream.CollectSink;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ClickWindowsTest {
    private static final int CLICKS = 200_000;

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 3})
    void shouldCountEveryUsersClicksPerWindowAsABruteForceCountDoes(int parallelism) {
        ClickGenerator generator = new ClickGenerator(100, 1);
        CollectSink<String> out = Sinks.collect();
        JobStats stats = ClickWindows.countPerUser(Sources.generator(CLICKS, 0, generator::line), parallelism, out);

        Map<String, Long> counts = new TreeMap<>();
        for (long seq = 0; seq < CLICKS; seq++) {
            counts.merge(generator.ts(seq) / 10_000 * 10_000 + "," + generator.user(seq), 1L, Long::sum);
        }
        List<String> expected = new ArrayList<>();
        counts.forEach((window, n) -> expected.add(window + "," + n));
        assertThat(stats.totalLateRecords()).isZero();
        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
