package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
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
    void shouldRefuseAProgramGroupMissingFromTheConfig() {
        Node<Void, Long> source = Node.source(List.of(1L));
        Node<Long, Void> sink = Node.sink(x -> {});
        source.createGroup("A");
        sink.createGroup("Z");
        DffConfig config = LocalCluster.config(List.of("A", "B"), "");

        assertThatThrownBy(() -> GroupRun.start(
                        GraphCompiler.compile(new Pipeline(source, sink)),
                        RunOptions.defaults(),
                        new DFF.Settings(
                                "A", config, SerializationConfig.builder().build(), false)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'Z' is used by the program but not defined in the config");
    }

    @Test
    void shouldBroadcastToEveryGroup() throws Exception {
        Map<String, Long> seen = new java.util.concurrent.ConcurrentHashMap<>();
        Node<Void, Long> source = new org.fastflowj.core.MultiOutputNode<>() {
            private long next;

            @Override
            protected Long svc(Void none) {
                if (next == 100) {
                    return eos();
                }
                broadcast(next++);
                return goOn();
            }
        };
        List<Node<Long, Void>> workers = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "w" + i;
            workers.add(Node.sink(x -> seen.merge(name, x, Long::sum)));
        }
        org.fastflowj.core.AllToAll a2a = new org.fastflowj.core.AllToAll()
                .firstSet(source)
                .secondSet(workers.get(0), workers.get(1), workers.get(2));
        a2a.createGroup("SRC").include(source).include(workers.get(0));
        a2a.createGroup("OTHERS").include(workers.get(1)).include(workers.get(2));

        LocalCluster.run(new Pipeline(a2a), LocalCluster.config(List.of("SRC", "OTHERS"), ""), 30);

        assertThat(seen).containsOnly(Map.entry("w0", 4950L), Map.entry("w1", 4950L), Map.entry("w2", 4950L));
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
