package org.fastflowj.core.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GroupLayoutTest.Chooser;
import org.fastflowj.core.graph.GroupLayoutTest.Gatherer;
import org.fastflowj.core.graph.GroupLayoutTest.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A group's graph keeps every local vertex's channel order, with bridges standing for the other groups. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GraphCutTest {
    /** Records what each bridge was made for. */
    static final class RecordingFactory implements GraphCut.BridgeFactory {
        final List<String> made = new ArrayList<>();

        @Override
        public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
            made.add("send " + peer + " " + forward + " " + feedback);
            return new NamedTask("sender to " + peer);
        }

        @Override
        public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
            made.add("recv " + peer + " " + forward + " " + feedback);
            return new NamedTask("receiver from " + peer);
        }
    }

    /** A bridge's task as a graph carries it: only its name matters here. */
    record NamedTask(String name) implements EngineTask {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Graph figureFive() {
        Node<Object, Object> source = new Chooser("source");
        var l0 = new Chooser("L0");
        var l1 = new Chooser("L1");
        var r = List.of(new Named("R0"), new Named("R1"), new Named("R2"), new Named("R3"));
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(r.get(0), r.get(1), r.get(2), r.get(3));
        Node<Object, Object> sink = new Gatherer();
        source.createGroup("G1");
        a2a.createGroup("G2").include(l0).include(r.get(0)).include(r.get(1));
        a2a.createGroup("G3").include(l1).include(r.get(2)).include(r.get(3));
        sink.createGroup("G4");
        return GraphCompiler.compile(new Pipeline(source, a2a, sink));
    }

    @Test
    void shouldMarkOnlyTheEdgesThatJoinAnAllToAllsTwoSetsAndKeepTheMarkInAGroupsGraph() {
        Graph whole = figureFive();

        List<String> marked = new ArrayList<>();
        for (Edge e : whole.edges()) {
            if (e.joinsAllToAllSets()) {
                marked.add(e.from().name() + ">" + e.to().name());
            }
        }
        Graph g2 = GraphCut.forGroup(whole, "G2", new RecordingFactory());

        // L0 and L1 to each R-Worker; the edges into L and out of R join other blocks.
        assertThat(marked)
                .containsExactlyInAnyOrder(
                        "ff-a2a1-L0>ff-a2a1-R0",
                        "ff-a2a1-L0>ff-a2a1-R1",
                        "ff-a2a1-L0>ff-a2a1-R2",
                        "ff-a2a1-L0>ff-a2a1-R3",
                        "ff-a2a1-L1>ff-a2a1-R0",
                        "ff-a2a1-L1>ff-a2a1-R1",
                        "ff-a2a1-L1>ff-a2a1-R2",
                        "ff-a2a1-L1>ff-a2a1-R3");
        assertThat(g2.vertex("ff-a2a1-L0").forwardOut()).allMatch(Edge::joinsAllToAllSets);
        assertThat(g2.vertex("ff-a2a1-L0").forwardIn()).noneMatch(Edge::joinsAllToAllSets);
        assertThat(g2.vertex("ff-a2a1-R0").forwardOut()).noneMatch(Edge::joinsAllToAllSets);
    }

    @Test
    void shouldMarkTheShuffleFromAPipelineLWorkerButNotItsInnerEdgesNorTheFeedback() {
        Pipeline lWorker = new Pipeline(new Named("L0a"), new Chooser("L0b"));
        AllToAll a2a = new AllToAll()
                .firstSet(lWorker, new Chooser("L1"))
                .secondSet(new Chooser("R0"), new Chooser("R1"))
                .wrapAround();

        Graph whole = GraphCompiler.compile(a2a);

        for (Edge e : whole.edges()) {
            boolean shuffle = e.kind() == Edge.Kind.FORWARD
                    && e.from().name().contains("-L")
                    && e.to().name().contains("-R")
                    && !e.from().name().endsWith("-stage0");
            assertThat(e.joinsAllToAllSets()).as(e.toString()).isEqualTo(shuffle);
        }
        assertThat(whole.edges()).filteredOn(Edge::joinsAllToAllSets).hasSize(4);
        assertThat(whole.edges())
                .filteredOn(e -> e.kind() == Edge.Kind.FEEDBACK)
                .isNotEmpty();
    }

    @Test
    void shouldKeepEveryLocalChannelAtItsPositionWithBridgesForOtherGroups() {
        Graph whole = figureFive();
        RecordingFactory factory = new RecordingFactory();

        Graph g2 = GraphCut.forGroup(whole, "G2", factory);

        // Bridges come in the order of the whole graph's first edge to or from their peer (the a2a's
        // edges are made before the pipeline joins its stages).
        assertThat(g2.vertices())
                .extracting(Vertex::name)
                .containsExactly(
                        "ff-a2a1-L0",
                        "ff-a2a1-R0",
                        "ff-a2a1-R1",
                        "ff-send-G3",
                        "ff-send-G4",
                        "ff-recv-G3",
                        "ff-recv-G1");
        Vertex l0 = g2.vertex("ff-a2a1-L0");
        // L0 sends to R0..R3 as in the whole program: R0, R1 here, R2, R3 through G3's sender.
        assertThat(l0.forwardOut())
                .extracting(e -> e.to().name())
                .containsExactly("ff-a2a1-R0", "ff-a2a1-R1", "ff-send-G3", "ff-send-G3");
        assertThat(l0.forwardIn()).extracting(e -> e.from().name()).containsExactly("ff-recv-G1");
        // R0 hears L0 (local) then L1 (through G3's receiver): channel 0 and 1, as in one process.
        assertThat(g2.vertex("ff-a2a1-R0").forwardIn())
                .extracting(e -> e.from().name())
                .containsExactly("ff-a2a1-L0", "ff-recv-G3");
        assertThat(g2.vertex("ff-a2a1-R1").id()).isEqualTo(1);
        assertThat(factory.made)
                .containsExactly(
                        "send G3 [ff-a2a1-L0 -forward-> ff-a2a1-R2, ff-a2a1-L0 -forward-> ff-a2a1-R3] []",
                        "send G4 [ff-a2a1-R0 -forward-> ff-pipe1-stage2, ff-a2a1-R1 -forward-> ff-pipe1-stage2] []",
                        "recv G3 [ff-a2a1-L1 -forward-> ff-a2a1-R0, ff-a2a1-L1 -forward-> ff-a2a1-R1] []",
                        "recv G1 [ff-pipe1-stage0 -forward-> ff-a2a1-L0] []");
        for (Vertex v : g2.vertices()) {
            assertThat(g2.vertices().get(v.index())).isSameAs(v);
        }
    }

    @Test
    void shouldCutAFeedbackEdgeAcrossGroupsAsFeedback() {
        Node<Object, Object> head = new Chooser("head");
        Node<Object, Object> tail = new Named("tail");
        Pipeline loop = new Pipeline(head, tail).wrapAround();
        loop.createGroup("A").include(head);
        loop.createGroup("B").include(tail);
        Graph whole = GraphCompiler.compile(loop);
        RecordingFactory factory = new RecordingFactory();

        Graph a = GraphCut.forGroup(whole, "A", factory);

        assertThat(factory.made)
                .containsExactly(
                        "send B [ff-pipe1-stage0 -forward-> ff-pipe1-stage1] []",
                        "recv B [] [ff-pipe1-stage1 -feedback-> ff-pipe1-stage0]");
        assertThat(a.vertex("ff-pipe1-stage0").feedbackIn())
                .extracting(e -> e.from().name())
                .containsExactly("ff-recv-B");
    }

    @Test
    void shouldRefuseAGroupTheProgramDoesNotHave() {
        assertThatThrownBy(() -> GraphCut.forGroup(figureFive(), "G9", new RecordingFactory()))
                .hasMessageContaining("no group named G9")
                .hasMessageContaining("[G1, G2, G3, G4]");
    }
}
