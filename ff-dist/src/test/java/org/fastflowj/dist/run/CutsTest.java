package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.run.Programs.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** All-to-all cuts (vertical, horizontal, inter-set), by-key routing across groups, a farm as one group. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CutsTest {
    private static AllToAll twoByTwo(Trace trace, List<Node<Long, Long>> l, List<Node<Long, Long>> r) {
        l.add(new Programs.ByKey(trace, "L0"));
        l.add(new Programs.ByKey(trace, "L1"));
        r.add(new Programs.Counting(trace, "R0"));
        r.add(new Programs.Counting(trace, "R1"));
        return new AllToAll().firstSet(l.get(0), l.get(1)).secondSet(r.get(0), r.get(1));
    }

    private static Trace oneProcess(long items) {
        Trace trace = new Trace();
        AllToAll a2a = twoByTwo(trace, new ArrayList<>(), new ArrayList<>());
        new Pipeline(new Programs.Source(items), a2a, new Programs.Sink(trace)).runAndWaitEnd();
        return trace;
    }

    @Test
    void shouldCutAnAllToAllVerticallyWithTwoMessageBatchesAndOneCredit() throws Exception {
        // L-Workers in one group, R-Workers in another: every L -> R channel crosses the network
        Trace vertical = new Trace();
        List<Node<Long, Long>> vl = new ArrayList<>();
        List<Node<Long, Long>> vr = new ArrayList<>();
        AllToAll a2a = twoByTwo(vertical, vl, vr);
        a2a.createGroup("LEFT").include(vl.get(0)).include(vl.get(1));
        a2a.createGroup("RIGHT").include(vr.get(0)).include(vr.get(1));
        Pipeline program = new Pipeline(new Programs.Source(5_000), a2a, new Programs.Sink(vertical));
        program.stages().get(0).createGroup("SRC");
        program.stages().get(2).createGroup("SINK");

        LocalCluster.run(
                program,
                LocalCluster.config(
                        List.of("SRC", "LEFT", "RIGHT", "SINK"),
                        "\"batchSize\": 2, \"messageOTF\": 1, \"internalMessageOTF\": 1"),
                60);

        Trace one = oneProcess(5_000);
        assertThat(vertical.results).isEqualTo(one.results);
        assertThat(DistributedSemanticsTest.sorted(vertical)).isEqualTo(DistributedSemanticsTest.sorted(one));
    }

    @Test
    void shouldCutAnAllToAllHorizontallyInsideAndAcrossItsSets() throws Exception {
        for (boolean interSet : new boolean[] {true, false}) {
            Trace trace = new Trace();
            List<Node<Long, Long>> l = new ArrayList<>();
            List<Node<Long, Long>> r = new ArrayList<>();
            AllToAll a2a = twoByTwo(trace, l, r);
            Pipeline program = new Pipeline(new Programs.Source(4_000), a2a, new Programs.Sink(trace));
            program.stages().get(0).createGroup("SRC");
            program.stages().get(2).createGroup("SINK");
            List<String> groups;
            if (interSet) { // G1 = {L0, R0}, G2 = {L1, R1}: L0 -> R0 stays in memory
                a2a.createGroup("G1").include(l.get(0)).include(r.get(0));
                a2a.createGroup("G2").include(l.get(1)).include(r.get(1));
                groups = List.of("SRC", "G1", "G2", "SINK");
            } else { // L0 | L1 | R0+R1
                a2a.createGroup("L0").include(l.get(0));
                a2a.createGroup("L1").include(l.get(1));
                a2a.createGroup("R").include(r.get(0)).include(r.get(1));
                groups = List.of("SRC", "L0", "L1", "R", "SINK");
            }

            LocalCluster.run(program, LocalCluster.config(groups, ""), 60);

            Trace one = oneProcess(4_000);
            assertThat(trace.results).as("inter-set " + interSet).isEqualTo(one.results);
            assertThat(DistributedSemanticsTest.sorted(trace)).isEqualTo(DistributedSemanticsTest.sorted(one));
        }
    }

    /** Splits lines into words and sends each word to the counter its hash picks. */
    static final class Splitter extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String line) {
            for (String word : line.split("\\s+")) {
                if (!word.isEmpty()) {
                    sendOutTo(word, Math.floorMod(word.hashCode(), outputChannels()));
                }
            }
            return goOn();
        }
    }

    /** Counts its words; at the end adds them to the shared result (each word reaches one counter). */
    static final class Counter extends Node<String, Void> {
        private final Map<String, Long> counts = new HashMap<>();
        private final Map<String, Long> result;

        Counter(Map<String, Long> result) {
            this.result = result;
        }

        @Override
        protected Void svc(String word) {
            counts.merge(word, 1L, Long::sum);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            counts.forEach((w, c) -> assertThat(result.putIfAbsent(w, c))
                    .as(w + " counted twice")
                    .isNull());
        }
    }

    @Test
    void shouldCountWordsByKeyAcrossGroupsAsASequentialCount() throws Exception {
        List<String> lines = new ArrayList<>();
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 3_000; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < 1 + random.nextInt(12); w++) {
                line.append("w").append((int) Math.pow(random.nextInt(40), 2)).append(i % 3 == 0 ? ", " : " ");
            }
            lines.add(line.toString());
        }
        Map<String, Long> sequential = new HashMap<>();
        for (String line : lines) {
            for (String w : line.split("\\s+")) {
                if (!w.isEmpty()) {
                    sequential.merge(w, 1L, Long::sum);
                }
            }
        }
        Map<String, Long> counted = new ConcurrentHashMap<>();
        List<Node<String, String>> splitters = List.of(new Splitter(), new Splitter());
        List<Node<String, Void>> counters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            counters.add(new Counter(counted));
        }
        AllToAll a2a = new AllToAll().firstSet(splitters.get(0), splitters.get(1));
        a2a.secondSet(counters.get(0), counters.get(1), counters.get(2), counters.get(3));
        Node<Void, String> source = Node.source(lines);
        Pipeline program = new Pipeline(source, a2a);
        source.createGroup("IN");
        a2a.createGroup("SPLIT").include(splitters.get(0)).include(splitters.get(1));
        a2a.createGroup("COUNT")
                .include(counters.get(0))
                .include(counters.get(1))
                .include(counters.get(2))
                .include(counters.get(3));

        LocalCluster.run(program, LocalCluster.config(List.of("IN", "SPLIT", "COUNT"), "\"batchSize\": 32"), 60);

        assertThat(counted).isEqualTo(sequential);
    }

    @Test
    void shouldGiveTheSameResultsInOneProcessAndInThreeGroups() throws Exception {
        Map<Long, Long> one = farmProgram(false, null);
        Map<Long, Long> three = new ConcurrentHashMap<>();
        farmProgram(true, three);

        assertThat(three).isEqualTo(one).hasSize(10_000);
    }

    /** Source, an ordered farm of 3 workers (a whole farm is one group), sink; returns item -> order seen. */
    private static Map<Long, Long> farmProgram(boolean grouped, Map<Long, Long> into) throws Exception {
        Map<Long, Long> seen = into != null ? into : new ConcurrentHashMap<>();
        long[] position = new long[1];
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, 10_000).boxed().iterator());
        Farm farm = Farm.of(3, () -> Node.of((Long x) -> x * 3 + 1)).ordered();
        Node<Long, Void> sink = Node.sink(x -> seen.put(x, position[0]++));
        Pipeline program = new Pipeline(source, farm, sink);
        if (!grouped) {
            program.runAndWaitEnd();
            return seen;
        }
        source.createGroup("IN");
        farm.createGroup("FARM");
        sink.createGroup("OUT");
        LocalCluster.run(program, LocalCluster.config(List.of("IN", "FARM", "OUT"), "\"batchSize\": 8"), 60);
        return seen;
    }
}
