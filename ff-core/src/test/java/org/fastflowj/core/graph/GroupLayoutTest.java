package org.fastflowj.core.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.patterns.MacroDataFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of the 2022 paper's Fig. 6, checked when the graph is built, and the group of each vertex. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupLayoutTest {
    static final class Named extends Node<Object, Object> {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        protected Object svc(Object in) {
            return in;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final class Chooser extends MultiOutputNode<Object, Object> {
        private final String name;

        Chooser(String name) {
            this.name = name;
        }

        @Override
        protected Object svc(Object in) {
            return in;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final class Gatherer extends MultiInputNode<Object, Object> {
        @Override
        protected Object svc(Object in) {
            return in;
        }

        @Override
        public String toString() {
            return "sink";
        }
    }

    private static Map<String, String> groupsOf(BuildingBlock root) {
        Map<String, String> result = new LinkedHashMap<>();
        for (Vertex v : GraphCompiler.compile(root).vertices()) {
            result.put(v.name(), v.group());
        }
        return result;
    }

    /** The paper's Fig. 5: source, a 2x4 all-to-all split in two inter-set groups, sink. */
    @Test
    void shouldPlaceEveryVertexOfFigureFiveInItsGroup() {
        Node<Object, Object> source = new Chooser("source");
        var l = List.of(new Chooser("L0"), new Chooser("L1"));
        var r = List.of(new Named("R0"), new Named("R1"), new Named("R2"), new Named("R3"));
        AllToAll a2a = new AllToAll().firstSet(l.get(0), l.get(1)).secondSet(r.get(0), r.get(1), r.get(2), r.get(3));
        Node<Object, Object> sink = new Gatherer();
        Pipeline pipe = new Pipeline(source, a2a, sink);
        source.createGroup("G1");
        a2a.createGroup("G2").include(l.get(0)).include(r.get(0)).include(r.get(1));
        a2a.createGroup("G3").include(l.get(1)).include(r.get(2)).include(r.get(3));
        sink.createGroup("G4");

        Map<String, String> groups = groupsOf(pipe);

        assertThat(groups)
                .containsEntry("ff-pipe1-stage0", "G1")
                .containsEntry("ff-a2a1-L0", "G2")
                .containsEntry("ff-a2a1-R0", "G2")
                .containsEntry("ff-a2a1-R1", "G2")
                .containsEntry("ff-a2a1-L1", "G3")
                .containsEntry("ff-a2a1-R2", "G3")
                .containsEntry("ff-a2a1-R3", "G3")
                .containsEntry("ff-pipe1-stage2", "G4");
    }

    @Test
    void shouldPutAWholeFarmWithItsDefaultEmitterAndCollectorInItsGroup() {
        Node<Object, Object> src = new Named("src");
        Farm farm = Farm.of(new Named("w0"), new Named("w1")).ordered();
        Pipeline pipe = new Pipeline(src, farm);
        src.createGroup("A");
        farm.createGroup("B");

        assertThat(groupsOf(pipe).entrySet())
                .filteredOn(e -> e.getKey().startsWith("ff-farm1"))
                .hasSize(4)
                .allMatch(e -> e.getValue().equals("B"));
    }

    @Test
    void shouldLeaveGroupsNullWhenTheProgramHasNone() {
        assertThat(groupsOf(new Pipeline(new Named("a"), new Named("b"))).values())
                .containsOnlyNulls();
    }

    @Test
    void shouldAcceptGroupsFromTheRootPipelineWithContiguousStages() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        Node<Object, Object> c = new Named("c");
        Pipeline pipe = new Pipeline(a, new Pipeline(b, new Named("b2")), c);
        pipe.createGroup("front").include(a).include(pipe.stages().get(1));
        pipe.createGroup("back").include(c);

        assertThat(groupsOf(pipe).values()).containsExactly("front", "front", "front", "back");
    }

    @Test
    void shouldRejectADuplicateGroupName() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        a.createGroup("G1");
        b.createGroup("G1");
        assertRejected(new Pipeline(a, b), "group G1 is created twice", "from a", "from b");
    }

    @Test
    void shouldRejectASecondGroupFromANode() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        a.createGroup("G1");
        a.createGroup("G2");
        b.createGroup("G3");
        assertRejected(new Pipeline(a, b), "a creates groups G1 and G2: a node or combiner gives only one group");
    }

    @Test
    void shouldRejectAGroupBelowLevelOne() {
        Node<Object, Object> deep = new Named("deep");
        Pipeline inner = new Pipeline(new Named("x"), deep);
        deep.createGroup("G2");
        inner.createGroup("G1");
        assertRejected(new Pipeline(new Named("a"), inner), "group G2 is created from deep at level 2");
    }

    @Test
    void shouldRejectGroupsFromTheRootBesideGroupsFromItsChildren() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        Pipeline pipe = new Pipeline(a, b);
        pipe.createGroup("G0").include(a);
        b.createGroup("G1");
        assertRejected(pipe, "group G0 is created from the root", "group G1 from a child", "one level only");
    }

    @Test
    void shouldRejectIncludingABlockThatIsNotADirectChild() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> stranger = new Named("stranger");
        Pipeline inner = new Pipeline(stranger, new Named("y"));
        Pipeline pipe = new Pipeline(a, inner);
        pipe.createGroup("G1").include(a).include(stranger);
        assertRejected(pipe, "group G1 includes stranger", "not a direct child");
    }

    @Test
    void shouldRejectABlockInTwoGroups() {
        Node<Object, Object> l0 = new Chooser("L0");
        Node<Object, Object> r0 = new Named("R0");
        AllToAll a2a = new AllToAll().firstSet(l0).secondSet(r0);
        a2a.createGroup("G1").include(l0).include(r0);
        a2a.createGroup("G2").include(r0);
        assertRejected(a2a, "R0 is included in group G1 and in group G2", "one group only");
    }

    @Test
    void shouldRejectNonContiguousPipelineStages() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        Node<Object, Object> c = new Named("c");
        Pipeline pipe = new Pipeline(a, b, c);
        pipe.createGroup("G1").include(a).include(c);
        pipe.createGroup("G2").include(b);
        assertRejected(pipe, "group G1 takes stages 0 and 2", "contiguous");
    }

    @Test
    void shouldRejectAStageLeftInNoGroup() {
        Node<Object, Object> a = new Named("a");
        Node<Object, Object> b = new Named("b");
        a.createGroup("G1");
        assertRejected(new Pipeline(a, b, new Named("c")), "b is left in no group");
    }

    @Test
    void shouldRejectAnAllToAllWorkerLeftInNoGroup() {
        Node<Object, Object> l0 = new Chooser("L0");
        AllToAll a2a = new AllToAll().firstSet(l0).secondSet(new Named("R0"), new Named("R1"));
        a2a.createGroup("G1").include(l0);
        a2a.createGroup("G2").include(a2a.secondSet().get(0));
        assertRejected(a2a, "R1 is left in no group", "G1, G2");
    }

    @Test
    void shouldRejectAWholeBlockGroupBesideOtherGroupsOfIt() {
        Node<Object, Object> l0 = new Chooser("L0");
        AllToAll a2a = new AllToAll().firstSet(l0).secondSet(new Named("R0"));
        a2a.createGroup("G1");
        a2a.createGroup("G2").include(l0);
        assertRejected(a2a, "group G1 includes nothing", "other groups");
    }

    @Test
    void shouldRejectAnEmptyGroupName() {
        assertThatThrownBy(() -> new Named("a").createGroup(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-empty name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../../escaped", "/abs/path", "-x", ".hidden", "a/b"})
    void shouldRejectANameThatIsNoGroupNameAndSayTheRule(String name) {
        assertThatThrownBy(() -> new Named("a").createGroup(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(".createGroup(\"" + name + "\"): not a group name; expected 1 to 64 letters,"
                        + " digits, '_', '.' and '-', not starting with '.' or '-'");
        assertThatThrownBy(() -> new MacroDataFlow(1).createGroup(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MacroDataFlow.createGroup(\"" + name + "\"): not a group name");
    }

    private static void assertRejected(BuildingBlock root, String... parts) {
        assertThatThrownBy(() -> GraphCompiler.compile(root))
                .isInstanceOf(GraphBuildException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(parts));
    }
}
