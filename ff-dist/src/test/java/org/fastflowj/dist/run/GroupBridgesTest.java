package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The credits of each connection come from what the compiler recorded on its edges. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupBridgesTest {
    private static final DffConfig CONFIG =
            LocalCluster.config(List.of("G1", "G2", "G3", "G4"), "\"messageOTF\": 7, \"internalMessageOTF\": 3");

    /** The edges each of G2's senders carries, by peer. */
    private static Map<String, List<Edge>> sendersOfG2(Graph whole) {
        Map<String, List<Edge>> forwardByPeer = new LinkedHashMap<>();
        GraphCut.forGroup(whole, "G2", new GraphCut.BridgeFactory() {
            @Override
            public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                assertThat(feedback).isEmpty();
                forwardByPeer.put(peer, forward);
                return new EngineTask() {};
            }

            @Override
            public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                return new EngineTask() {};
            }
        });
        return forwardByPeer;
    }

    @Test
    void shouldGiveTheInternalCreditsOnlyToAConnectionInsideOneAllToAll() {
        Graph whole = GraphCompiler.compile(Programs.figureFive(new Programs.Trace(), 1, true));
        GroupConfig g2 = CONFIG.group("G2").orElseThrow();

        Map<String, List<Edge>> senders = sendersOfG2(whole);

        // G2's L0 shuffles to G3's R2, R3; G2's R0, R1 feed the sink in G4.
        assertThat(senders).containsOnlyKeys("G3", "G4");
        assertThat(GroupBridges.credits(g2, senders.get("G3"), List.of())).isEqualTo(3);
        assertThat(GroupBridges.credits(g2, senders.get("G4"), List.of())).isEqualTo(7);
    }

    @Test
    void shouldGiveTheOrdinaryCreditsWhenTheConnectionAlsoCarriesFeedbackOrOtherEdges() {
        Graph whole = GraphCompiler.compile(Programs.figureFive(new Programs.Trace(), 1, true));
        GroupConfig g2 = CONFIG.group("G2").orElseThrow();
        Map<String, List<Edge>> senders = sendersOfG2(whole);
        Edge shuffle = senders.get("G3").get(0);
        Edge toSink = senders.get("G4").get(0);

        assertThat(GroupBridges.credits(g2, List.of(shuffle), List.of(toSink))).isEqualTo(7);
        assertThat(GroupBridges.credits(g2, List.of(shuffle, toSink), List.of()))
                .isEqualTo(7);
        assertThat(GroupBridges.credits(g2, List.of(), List.of())).isEqualTo(7);
    }

    @Test
    void shouldWarnOfALinkThatAllowsFewerBatchesInFlightThanItHasOnDemandWorkers() {
        assertThat(GroupBridges.describeCreditStarvation("G0", "G1", 2, 1))
                .contains("G0's link to G1", "2 on-demand workers", "only 1 batch unacknowledged (messageOTF)")
                .contains("a messageOTF of at least 2");
        assertThat(GroupBridges.describeCreditStarvation("G0", "G1", 2, 2)).isNull();
        assertThat(GroupBridges.describeCreditStarvation("G0", "G1", 0, 1)).isNull();
    }
}
