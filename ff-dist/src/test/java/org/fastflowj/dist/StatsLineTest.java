package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.junit.jupiter.api.Test;

class StatsLineTest {
    private static final RunStats STATS = new RunStats(
            List.of(
                    new NodeStats("parse words", 10, 9, 1_000, 2_000, 3_000, -1, Map.of("skipped", 3L, "late %x", 1L)),
                    new NodeStats("a=b%c\"d", 0, 42, 5, 6, 7, 3)),
            List.of(new LinkStats("A -> B", 43, 4_096, 2, 123_456)),
            List.of(
                    new QueueStats("parse words", "a=b%c\"d", false, 512, 512),
                    new QueueStats("a=b%c\"d", "parse words", true, 3, -1)));

    @Test
    void shouldGiveBackEveryNodeLinkChannelAndCounterWhateverTheirNames() {
        String line = StatsLine.format(false, 1_234, STATS);

        assertThat(line).startsWith(StatsLine.PROGRESS + " 1234 ").doesNotContain("\n");
        StatsLine.Report report = StatsLine.parse(line);
        assertThat(report.last()).isFalse();
        assertThat(report.uptimeMs()).isEqualTo(1_234);
        assertThat(report.stats()).isEqualTo(STATS);
    }

    @Test
    void shouldCarryTheCheckpointsOfARunThatTakesThem() {
        RunStats withCheckpoints = new RunStats(
                STATS.nodes(),
                STATS.links(),
                STATS.queues(),
                Optional.of(new CheckpointStats(12, 17, 3_000_000, 4_096, 250_000, 2)));

        StatsLine.Report report = StatsLine.parse(StatsLine.format(false, 9, withCheckpoints));

        assertThat(report.stats()).isEqualTo(withCheckpoints);
        assertThat(StatsLine.parse(StatsLine.format(false, 9, STATS)).stats().checkpoints())
                .isEmpty();
    }

    @Test
    void shouldMarkTheFinalReport() {
        String line = StatsLine.format(true, 7, STATS);

        assertThat(StatsLine.isReport(line)).isTrue();
        assertThat(line).startsWith(StatsLine.FINAL);
        assertThat(StatsLine.parse(line).last()).isTrue();
    }

    @Test
    void shouldCarryTheGraphOnALineOfItsOwn() {
        String line = StatsLine.graphLine("{\"vertices\":[]}");

        assertThat(StatsLine.isReport(line)).isTrue();
        assertThat(StatsLine.graphOf(line)).isEqualTo("{\"vertices\":[]}");
        assertThat(StatsLine.graphOf(StatsLine.format(true, 7, STATS))).isNull();
    }

    @Test
    void shouldNameTheLineThatIsNoReport() {
        assertThat(StatsLine.isReport("DFF_CONNECTED: A")).isFalse();
        assertThatThrownBy(() -> StatsLine.parse(StatsLine.PROGRESS + " 12 n square 1 2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed statistics line")
                .hasMessageContaining("n square 1 2");
    }
}
