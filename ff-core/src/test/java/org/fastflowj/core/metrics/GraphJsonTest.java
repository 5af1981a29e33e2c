package org.fastflowj.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;

/** The structure the live page draws: columns by pipeline depth, groups, clusters, fused nodes, JSON escaping. */
class GraphJsonTest {

    @Test
    void shouldPutEachDistributedGroupsThreadsInTheirGroupAndColumn() {
        Node<Void, Integer> source = Node.source(List.of(1, 2)).named("numbers");
        Farm farm = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x)).named("work");
        Node<Integer, Void> sink = Node.<Integer>sink(x -> {}).named("sums");
        Pipeline pipe = new Pipeline(source, farm, sink);
        source.createGroup("G1");
        farm.createGroup("G2");
        sink.createGroup("G3");

        String json = GraphJson.format(GraphCompiler.compile(pipe));

        assertThat(json)
                .contains(
                        "{\"name\":\"numbers\",\"column\":0,\"group\":\"G1\",\"clusters\":[],\"parts\":[\"node numbers\"]}")
                .contains("{\"name\":\"ff-work-emitter\",\"column\":1,\"group\":\"G2\",\"clusters\":[\"work\"]")
                .contains("{\"name\":\"ff-work-worker1\",\"column\":2,\"group\":\"G2\",\"clusters\":[\"work\"]")
                .contains("{\"name\":\"sums\",\"column\":3,\"group\":\"G3\"")
                .contains("{\"from\":\"numbers\",\"to\":\"ff-work-emitter\",\"kind\":\"forward\"}");
    }

    @Test
    void shouldLeaveFeedbackOutOfTheColumnsAndNameItsEdges() {
        Farm farm = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x))
                .emitter(Node.<Integer, Integer>of(x -> x).named("master"))
                .wrapAround();

        Graph graph = GraphCompiler.compile(farm);
        String json = GraphJson.format(graph);

        assertThat(GraphJson.columns(graph).values()).containsExactlyInAnyOrder(0, 1, 1);
        assertThat(json).contains("{\"name\":\"master\",\"column\":0,");
        assertThat(json).containsPattern("\\{\"from\":\"[^\"]+worker0\",\"to\":\"master\",\"kind\":\"feedback\"}");
    }

    @Test
    void shouldListTheNodesFusedIntoOneThread() {
        Node<Integer, Integer> parse = Node.<Integer, Integer>of(x -> x).named("parse");
        Node<Integer, Integer> check = Node.<Integer, Integer>of(x -> x).named("check");
        Pipeline pipe = new Pipeline(Node.source(List.of(1)).named("in"), Combiner.of(parse, check));

        String json = GraphJson.format(GraphCompiler.compile(pipe));

        assertThat(json)
                .containsPattern(
                        "\"column\":1,\"group\":null,\"clusters\":\\[],\"parts\":\\[\"node parse\",\"node check\"]");
    }

    @Test
    void shouldEscapeNamesSoThatTheyStayOneJsonStringAndCannotCloseAScript() {
        StringBuilder out = new StringBuilder();

        JsonText.string(out, "a\"b\\c\nd</script>\u0001");

        assertThat(out).hasToString("\"a\\\"b\\\\c\\nd\\u003c/script>\\u0001\"");
    }
}
