package org.fastflowj.core.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GroupLayoutTest.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A farm's workers spread over several groups: where each vertex goes, and each rule's message. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FarmGroupsTest {
    private static Map<String, String> groupsOf(BuildingBlock root) {
        Map<String, String> result = new LinkedHashMap<>();
        for (Vertex v : GraphCompiler.compile(root).vertices()) {
            result.put(v.name(), v.group());
        }
        return result;
    }

    private static void assertRejected(BuildingBlock root, String... parts) {
        assertThatThrownBy(() -> GraphCompiler.compile(root))
                .isInstanceOf(GraphBuildException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(parts));
    }

    @Test
    void shouldKeepEmitterCollectorAndUnmovedWorkersInTheFarmsGroupAndMoveIncludedWorkersWhole() {
        Node<Object, Object> stage = new Named("s1");
        Pipeline twoStageWorker = new Pipeline(new Named("s0"), stage);
        Node<Object, Object> w2 = new Named("w2");
        Farm farm = Farm.of(new Named("w0"), twoStageWorker, w2)
                .emitter(new Named("e"))
                .collector(new Named("c"));
        Node<Object, Object> sink = new Named("sink");
        Pipeline program = new Pipeline(farm, sink);
        farm.createGroup("M");
        farm.createGroup("W").include(twoStageWorker).include(w2);
        sink.createGroup("S");

        assertThat(groupsOf(program))
                .containsEntry("ff-farm1-emitter", "M")
                .containsEntry("ff-farm1-worker0", "M")
                .containsEntry("ff-farm1-worker1-stage0", "W")
                .containsEntry("ff-farm1-worker1-stage1", "W")
                .containsEntry("ff-farm1-worker2", "W")
                .containsEntry("ff-farm1-collector", "M")
                .containsEntry("ff-pipe1-stage1", "S");
    }

    @Test
    void shouldGiveTheFarmTheGroupOfTheBlockThatHoldsItWhenItHasNoneOfItsOwn() {
        Node<Object, Object> w1 = new Named("w1");
        Farm farm = Farm.of(new Named("w0"), w1);
        Pipeline program = new Pipeline(new Named("src"), farm);
        program.createGroup("A").include(program.stages().get(0)).include(farm);
        farm.createGroup("W").include(w1);

        assertThat(groupsOf(program))
                .containsEntry("ff-pipe1-stage0", "A")
                .containsEntry("ff-farm1-emitter", "A")
                .containsEntry("ff-farm1-worker0", "A")
                .containsEntry("ff-farm1-worker1", "W");
    }

    @Test
    void shouldRejectAWorkerInTwoGroups() {
        Node<Object, Object> w0 = new Named("w0");
        Farm farm = Farm.of(w0, new Named("w1"));
        farm.createGroup("M");
        farm.createGroup("W1").include(w0);
        farm.createGroup("W2").include(w0);
        assertRejected(farm, "w0 is included in group W1 and in group W2: a block belongs to one group only");
    }

    @Test
    void shouldRejectIncludingWhatIsNotAWorkerOfTheFarm() {
        Node<Object, Object> stranger = new Named("stranger");
        Farm farm = Farm.of(new Named("w0"), new Named("w1"));
        farm.createGroup("M");
        farm.createGroup("W").include(stranger);
        assertRejected(
                new Pipeline(farm, stranger),
                "group W includes stranger, which is not a direct child of Farm(2 workers)");
    }

    @Test
    void shouldRejectAFarmWithWorkerGroupsButNoGroupOfItsOwn() {
        Node<Object, Object> w1 = new Named("w1");
        Farm farm = Farm.of(new Named("w0"), w1);
        farm.createGroup("W").include(w1);
        assertRejected(
                new Pipeline(new Named("a"), farm),
                "Farm(2 workers) puts workers in group W but is itself in no group",
                "create one from Farm(2 workers) (createGroup with no include)");
    }

    @Test
    void shouldRejectTwoWholeGroupsFromAFarm() {
        Farm farm = Farm.of(new Named("w0"), new Named("w1"));
        farm.createGroup("G1");
        farm.createGroup("G2");
        assertRejected(
                new Pipeline(new Named("a"), farm),
                "Farm(2 workers) creates groups G1 and G2, each holding the whole farm: a farm has one group of its own");
    }

    @Test
    void shouldRejectMovingTheEmitterOrTheCollector() {
        Node<Object, Object> emitter = new Named("e");
        Farm withEmitter = Farm.of(new Named("w0"), new Named("w1")).emitter(emitter);
        emitter.createGroup("G1");
        assertRejected(
                withEmitter,
                "group G1 is created from e, the emitter of Farm(2 workers): a farm's emitter and collector stay in"
                        + " the farm's own group");

        Node<Object, Object> collector = new Named("c");
        Farm withCollector = Farm.of(new Named("w0"), new Named("w1")).collector(collector);
        collector.createGroup("G2");
        assertRejected(
                new Pipeline(new Named("a"), withCollector),
                "group G2 is created from c, the collector of Farm(2 workers): a farm's emitter and collector stay");
    }

    @Test
    void shouldRejectAGroupThatTakesPartOfAWorkersPipeline() {
        Node<Object, Object> stage = new Named("s1");
        Farm farm = Farm.of(new Pipeline(new Named("s0"), stage), new Named("w1"));
        stage.createGroup("G2");
        farm.createGroup("G1");
        assertRejected(
                farm,
                "group G2 is created from s1, which is part of a worker of Farm(2 workers): a farm's worker goes to"
                        + " another group whole",
                "Farm(2 workers).createGroup(\"G2\").include(worker)");
    }

    @Test
    void shouldKeepAnOrderedFarmsOrderChannelHomeAndLetItsRemoteWorkersMarkTheirTasks() {
        Node<Object, Object> w1 = new Named("w1");
        Farm farm = Farm.of(new Named("w0"), new Pipeline(w1, new Named("w1b"))).ordered();
        Pipeline program = new Pipeline(new Named("a"), farm);
        program.createGroup("A");
        farm.createGroup("W").include(farm.workers().get(1));

        Graph whole = GraphCompiler.compile(program);
        Map<String, Vertex> byName = new LinkedHashMap<>();
        whole.vertices().forEach(v -> byName.put(v.name(), v));
        Vertex emitter = byName.get("ff-farm1-emitter");
        Vertex collector = byName.get("ff-farm1-collector");
        assertThat(emitter.group()).isEqualTo("A");
        assertThat(collector.group()).isEqualTo("A");
        assertThat(emitter.orderEdge().to()).isSameAs(collector);
        assertThat(byName.get("ff-farm1-worker1-stage0").group()).isEqualTo("W");
        assertThat(byName.get("ff-farm1-worker1-stage0").orderRole()).isEqualTo(Vertex.OrderRole.MARK);
        assertThat(byName.get("ff-farm1-worker1-stage1").orderRole()).isEqualTo(Vertex.OrderRole.PASS_MARKS);
    }

    @Test
    void shouldRejectWorkerGroupsOfAFarmInsideAnotherFarmsWorker() {
        Node<Object, Object> inner1 = new Named("i1");
        Farm inner = Farm.of(new Named("i0"), inner1);
        Farm outer = Farm.of(inner, new Named("o1"));
        outer.createGroup("M");
        inner.createGroup("W").include(inner1);
        assertRejected(outer, "group W is created from Farm(2 workers), which is part of a worker of Farm(2 workers)");
    }
}
