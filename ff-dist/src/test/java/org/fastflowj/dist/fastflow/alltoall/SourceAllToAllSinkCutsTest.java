package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group1.cpp, test_group2.cpp, test_group8.cpp (test_complete1),
 * test_group15.cpp (test_complete) and the grouping of test_a2a_h4.cpp: source, all-to-all, sink, cut in
 * several ways; the sink gets every item once (sum 0..N-1), every node sees its one-process id, channels and
 * end of stream.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SourceAllToAllSinkCutsTest {
    private static final int ITEMS = 1_000;

    static final class Source extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < ITEMS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** FastFlow's MoNode: counts and passes on (round-robin over the R-Workers). */
    static final class MoNode extends MultiOutputNode<Long, Long> {
        private final Log log;
        private long processed;

        MoNode(Log log) {
            this.log = log;
        }

        @Override
        protected void svcInit() {
            log.event("L" + id(), "outputs=" + outputChannels());
        }

        @Override
        protected Long svc(Long i) {
            processed++;
            return i;
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("L" + id(), "eos " + channel);
        }

        @Override
        protected void svcEnd() {
            log.counts.merge("L", processed, Long::sum);
        }
    }

    /** FastFlow's MiNode: counts and passes on; records its channels' ends. */
    static final class MiNode extends MultiInputNode<Long, Long> {
        private final Log log;
        private long processed;

        MiNode(Log log) {
            this.log = log;
        }

        @Override
        protected void svcInit() {
            log.event("R" + id(), "inputs=" + inputChannels());
        }

        @Override
        protected Long svc(Long i) {
            processed++;
            return i;
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("R" + id(), "eos " + channel);
        }

        @Override
        protected void svcEnd() {
            log.counts.merge("R", processed, Long::sum);
        }
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        private final Log log;
        final List<Long> items = new ArrayList<>();
        long sum;

        Sink(Log log) {
            this.log = log;
        }

        @Override
        protected void svcInit() {
            log.event("sink", "inputs=" + inputChannels());
        }

        @Override
        protected Void svc(Long i) {
            sum += i;
            items.add(i);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("sink", "eos " + channel);
        }
    }

    /** The program's parts, so that each test can put them in groups. */
    private record Parts(Node<Void, Long> source, List<MoNode> l, List<MiNode> r, AllToAll a2a, Sink sink) {}

    private record Result(long sum, List<Long> items, Long lProcessed, Long rProcessed, Object events) {}

    private interface Shape {
        BuildingBlock build(Parts p, boolean grouped);
    }

    private static Result run(int nl, int nr, Shape shape, List<String> groups) throws Exception {
        Log log = new Log();
        List<MoNode> l = new ArrayList<>();
        List<MiNode> r = new ArrayList<>();
        for (int i = 0; i < nl; i++) {
            l.add(new MoNode(log));
        }
        for (int i = 0; i < nr; i++) {
            r.add(new MiNode(log));
        }
        Parts p = new Parts(new Source(), l, r, new AllToAll().firstSet(l).secondSet(r), new Sink(log));
        BuildingBlock root = shape.build(p, !groups.isEmpty());
        DistributedPrograms.run(root, "", groups);
        Result result = new Result(
                p.sink().sum,
                p.sink().items.stream().sorted().toList(),
                log.counts.get("L"),
                log.counts.get("R"),
                log.sortedEvents());
        assertThat(result.sum()).isEqualTo((long) ITEMS * (ITEMS - 1) / 2);
        assertThat(result.items()).isEqualTo(LongStream.range(0, ITEMS).boxed().toList());
        assertThat(result.lProcessed()).isEqualTo(ITEMS);
        assertThat(result.rProcessed()).isEqualTo(ITEMS);
        for (int i = 0; i < nl; i++) {
            assertThat(log.events.get("L" + i)).containsExactlyInAnyOrder("outputs=" + nr, "eos -1");
        }
        for (int j = 0; j < nr; j++) {
            List<String> expected = new ArrayList<>(List.of("inputs=" + nl));
            for (int i = 0; i < nl; i++) {
                expected.add("eos " + i);
            }
            assertThat(log.events.get("R" + j)).containsExactlyInAnyOrderElementsOf(expected);
        }
        List<String> sinkEvents = new ArrayList<>(List.of("inputs=" + nr));
        for (int j = 0; j < nr; j++) {
            sinkEvents.add("eos " + j);
        }
        assertThat(log.events.get("sink")).containsExactlyInAnyOrderElementsOf(sinkEvents);
        return result;
    }

    private static void assertSameInOneProcessAndInGroups(int nl, int nr, Shape shape, String... groups)
            throws Exception {
        Result one = run(nl, nr, shape, List.of());
        Result grouped = run(nl, nr, shape, List.of(groups));
        assertThat(grouped).isEqualTo(one);
    }

    /** test_group1: G1 source, G2 = {sx1, dx1, dx2}, G3 = {sx2, dx3}, G4 sink. */
    @Test
    void shouldSumEveryItemOnceWithTheAllToAllCutAcrossItsSets() throws Exception {
        assertSameInOneProcessAndInGroups(
                2,
                3,
                (p, grouped) -> {
                    Pipeline main = new Pipeline(p.source(), p.a2a(), p.sink());
                    if (grouped) {
                        p.source().createGroup("G1");
                        p.a2a()
                                .createGroup("G2")
                                .include(p.l().get(0))
                                .include(p.r().get(0))
                                .include(p.r().get(1));
                        p.a2a().createGroup("G3").include(p.l().get(1)).include(p.r().get(2));
                        p.sink().createGroup("G4");
                    }
                    return main;
                },
                "G1",
                "G2",
                "G3",
                "G4");
    }

    /** test_group2: G2 = {sx1, dx1, dx2, dx3}, G3 = {sx2} alone (an L-Worker whose every output is remote). */
    @Test
    void shouldSumEveryItemOnceWithOneLWorkerAloneInItsGroup() throws Exception {
        assertSameInOneProcessAndInGroups(
                2,
                3,
                (p, grouped) -> {
                    Pipeline main = new Pipeline(p.source(), p.a2a(), p.sink());
                    if (grouped) {
                        p.source().createGroup("G1");
                        p.a2a()
                                .createGroup("G2")
                                .include(p.l().get(0))
                                .include(p.r().get(0))
                                .include(p.r().get(1))
                                .include(p.r().get(2));
                        p.a2a().createGroup("G3").include(p.l().get(1));
                        p.sink().createGroup("G4");
                    }
                    return main;
                },
                "G1",
                "G2",
                "G3",
                "G4");
    }

    /** test_group8 / test_complete1: one-stage pipelines around a 3x3 all-to-all, each a group. */
    @Test
    void shouldSumEveryItemOnceWithNestedOneStagePipelinesAsGroups() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                3,
                (p, grouped) -> {
                    Pipeline sp = new Pipeline(p.source());
                    Pipeline sinkp = new Pipeline(p.sink());
                    Pipeline main = new Pipeline(sp, p.a2a(), sinkp);
                    if (grouped) {
                        sp.createGroup("G1");
                        p.a2a().createGroup("G2");
                        sinkp.createGroup("G3");
                    }
                    return main;
                },
                "G1",
                "G2",
                "G3");
    }

    /** test_group15 / test_complete: pipeline(source, a2a) is one group, the sink another. */
    @Test
    void shouldSumEveryItemOnceWhenTheAllToAllsRWorkersFanInAcrossGroups() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                3,
                (p, grouped) -> {
                    Pipeline pipe = new Pipeline(p.source(), p.a2a());
                    Pipeline main = new Pipeline(pipe, p.sink());
                    if (grouped) {
                        pipe.createGroup("G1");
                        p.sink().createGroup("G2");
                    }
                    return main;
                },
                "G1",
                "G2");
    }

    /** test_a2a_h4's groups: G1 = {L0}, G2 = {R0}, G3 = {L1, R1}, around source G0 and sink G4. */
    @Test
    void shouldSumEveryItemOnceWithLoneLAndRWorkersAndAMixedGroup() throws Exception {
        assertSameInOneProcessAndInGroups(
                2,
                2,
                (p, grouped) -> {
                    Pipeline main = new Pipeline(p.source(), p.a2a(), p.sink());
                    if (grouped) {
                        p.source().createGroup("G0");
                        p.a2a().createGroup("G1").include(p.l().get(0));
                        p.a2a().createGroup("G2").include(p.r().get(0));
                        p.a2a().createGroup("G3").include(p.l().get(1)).include(p.r().get(1));
                        p.sink().createGroup("G4");
                    }
                    return main;
                },
                "G0",
                "G1",
                "G2",
                "G3",
                "G4");
    }
}
