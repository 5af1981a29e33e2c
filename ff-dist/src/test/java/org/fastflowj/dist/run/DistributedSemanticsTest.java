package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.run.Programs.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A program cut into groups behaves as in one process: the same results, and every node sees the same
 * id, channel numbers, channel counts and eosNotify calls. Groups run in this JVM (see {@link LocalCluster}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistributedSemanticsTest {
    @Test
    void shouldRunAPipelineCutInTwoGroups() throws Exception {
        Trace trace = new Trace();
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, 20_000).boxed().iterator());
        Node<Long, Long> square = Node.of(x -> x * x);
        Node<Long, Void> sink = new Programs.Sink(trace);
        Pipeline pipe = new Pipeline(source, square, sink);
        source.createGroup("A");
        pipe.stages().get(1).createGroup("B");
        sink.createGroup("C");

        LocalCluster.run(pipe, LocalCluster.config(List.of("A", "B", "C"), ""), 60);

        long expected = LongStream.range(0, 20_000).map(x -> x * x).sum();
        assertThat(trace.sum.get()).isEqualTo(expected);
        assertThat(trace.results).hasSize(20_000);
        assertThat(trace.events.get("sink")).containsExactly("id=2 inputs=1", "eos 0", "end");
    }

    @Test
    void shouldRunFigureFiveAsInOneProcess() throws Exception {
        Trace one = new Trace();
        Programs.figureFive(one, 10_000, false).runAndWaitEnd();

        Trace four = new Trace();
        DffConfig config = LocalCluster.config(List.of("G1", "G2", "G3", "G4"), "");
        LocalCluster.run(Programs.figureFive(four, 10_000, true), config, 60);

        assertThat(four.results).isEqualTo(one.results);
        assertThat(sorted(four)).isEqualTo(sorted(one));
        assertThat(four.events.get("sink")).contains("eos 0", "eos 1", "eos 2", "eos 3");
    }

    @Test
    void shouldRunFigureFiveWithSmallBatchesAndOneCredit() throws Exception {
        Trace one = new Trace();
        Programs.figureFive(one, 3_000, false).runAndWaitEnd();

        Trace four = new Trace();
        DffConfig config = LocalCluster.config(
                List.of("G1", "G2", "G3", "G4"), "\"batchSize\": 2, \"messageOTF\": 1, \"internalMessageOTF\": 1");
        LocalCluster.run(Programs.figureFive(four, 3_000, true), config, 60);

        assertThat(four.results).isEqualTo(one.results);
        assertThat(sorted(four)).isEqualTo(sorted(one));
    }

    /** Each node's events in a fixed order: when the EOS of different channels comes is timing, in one process too. */
    static Map<String, List<String>> sorted(Trace trace) {
        Map<String, List<String>> result = new TreeMap<>();
        trace.events.forEach(
                (node, events) -> result.put(node, events.stream().sorted().toList()));
        return result;
    }
}
