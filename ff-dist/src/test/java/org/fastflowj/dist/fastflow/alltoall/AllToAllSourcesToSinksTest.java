package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Behaviour of FastFlow's tests/distributed/test_group3.cpp, test_group4.cpp, test_group17.cpp (test_complete9),
 * test_a2a_h1.cpp and test_a2a_h3.cpp: each source L-Worker sends one message to each R-Worker by index, and
 * R-Worker j receives "from i for j" from every L-Worker i on input channel i, whatever the cut.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllToAllSourcesToSinksTest {

    /** Source L-Worker: one message per output channel, tagged with its id (or a trigger's arrival). */
    static final class Source extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String trigger) {
            for (int i = 0; i < outputChannels(); i++) {
                sendOutTo("Task generated from " + id() + " for " + i, i);
            }
            return eos();
        }
    }

    /** R-Worker that records what it received and on which channel, and each channel's end. */
    static final class Sink extends MultiInputNode<String, String> {
        private final Log log;
        private final boolean forward;

        Sink(Log log, boolean forward) {
            this.log = log;
            this.forward = forward;
        }

        @Override
        protected String svc(String in) {
            String seen = in + " received by Sink " + id() + " from " + inputChannel();
            log.event("sink" + id(), seen);
            return forward ? seen : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("sink" + id(), "eos " + channel);
        }
    }

    /** test_a2a_h3's first stage: one trigger to each L-Worker. */
    static final class Trigger extends MultiOutputNode<Void, String> {
        @Override
        protected String svc(Void none) {
            broadcast("Trigger string!");
            return eos();
        }
    }

    static final class Printer extends Node<String, Void> {
        private final Log log;

        Printer(Log log) {
            this.log = log;
        }

        @Override
        protected Void svc(String in) {
            log.event("printer", in);
            return goOn();
        }
    }

    private interface Grouping {
        BuildingBlock group(AllToAll a2a, List<Source> l, List<Sink> r, Log log, boolean grouped);
    }

    private static Log run(int nl, int nr, boolean forward, Grouping grouping, String topLevel, List<String> groups)
            throws Exception {
        Log log = new Log();
        List<Source> l = new ArrayList<>();
        List<Sink> r = new ArrayList<>();
        for (int i = 0; i < nl; i++) {
            l.add(new Source());
        }
        for (int j = 0; j < nr; j++) {
            r.add(new Sink(log, forward));
        }
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r);
        BuildingBlock root = grouping.group(a2a, l, r, log, !groups.isEmpty());
        DistributedPrograms.run(root, topLevel, groups);
        for (int j = 0; j < nr; j++) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < nl; i++) {
                expected.add("Task generated from " + i + " for " + j + " received by Sink " + j + " from " + i);
                expected.add("eos " + i);
            }
            assertThat(log.events.get("sink" + j)).as("sink " + j).containsExactlyInAnyOrderElementsOf(expected);
        }
        return log;
    }

    private static void assertSameInOneProcessAndInGroups(
            int nl, int nr, boolean forward, Grouping grouping, String topLevel, String... groups) throws Exception {
        Log one = run(nl, nr, forward, grouping, topLevel, List.of());
        Log grouped = run(nl, nr, forward, grouping, topLevel, List.of(groups));
        assertThat(grouped.sortedEvents()).isEqualTo(one.sortedEvents());
    }

    /** test_group3: the three sources and sink 0 in G1, sink 1 alone in G2. */
    @Test
    void shouldDeliverOneMessagePerPairWhenOneRWorkerIsAlone() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                2,
                false,
                (a2a, l, r, log, grouped) -> {
                    if (grouped) {
                        a2a.createGroup("G1")
                                .include(l.get(0))
                                .include(l.get(1))
                                .include(l.get(2))
                                .include(r.get(0));
                        a2a.createGroup("G2").include(r.get(1));
                    }
                    return a2a;
                },
                "",
                "G1",
                "G2");
    }

    /** test_group4: sources 0 and 1 in G1, source 2 with both sinks in G2. */
    @Test
    void shouldDeliverOneMessagePerPairWhenOneLWorkerSitsWithTheRWorkers() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                2,
                false,
                (a2a, l, r, log, grouped) -> {
                    if (grouped) {
                        a2a.createGroup("G1").include(l.get(0)).include(l.get(1));
                        a2a.createGroup("G2")
                                .include(l.get(2))
                                .include(r.get(0))
                                .include(r.get(1));
                    }
                    return a2a;
                },
                "",
                "G1",
                "G2");
    }

    /** test_group17 / test_complete9: a 3x4 all-to-all cut vertically, batches of 2, one batch in flight. */
    @Test
    void shouldDeliverOneMessagePerPairAcrossAVerticalCutWithTinyBatches() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                4,
                false,
                (a2a, l, r, log, grouped) -> {
                    if (grouped) {
                        a2a.createGroup("G1")
                                .include(l.get(0))
                                .include(l.get(1))
                                .include(l.get(2));
                        a2a.createGroup("G2")
                                .include(r.get(0))
                                .include(r.get(1))
                                .include(r.get(2))
                                .include(r.get(3));
                    }
                    return new Pipeline(a2a);
                },
                "\"batchSize\": 2, \"messageOTF\": 1",
                "G1",
                "G2");
    }

    /** test_a2a_h1: G1 = {source 0, source 1, sink 0}, G2 = {source 2, sink 1}. */
    @Test
    void shouldDeliverOneMessagePerPairAcrossAHorizontalCut() throws Exception {
        assertSameInOneProcessAndInGroups(
                3,
                2,
                false,
                (a2a, l, r, log, grouped) -> {
                    if (grouped) {
                        a2a.createGroup("G1")
                                .include(l.get(0))
                                .include(l.get(1))
                                .include(r.get(0));
                        a2a.createGroup("G2").include(l.get(2)).include(r.get(1));
                    }
                    return a2a;
                },
                "",
                "G1",
                "G2");
    }

    /**
     * test_a2a_h3: a trigger (G0) starts each L-Worker, the all-to-all is cut in G1 = {L0, R0} and G2 = {L1,
     * R1}, and the R-Workers' reports reach a printer in G3.
     */
    @Test
    void shouldReportEveryPairToAPrinterBehindAHorizontalCut() throws Exception {
        Grouping grouping = (a2a, l, r, log, grouped) -> {
            Trigger trigger = new Trigger();
            Printer printer = new Printer(log);
            if (grouped) {
                trigger.createGroup("G0");
                a2a.createGroup("G1").include(l.get(0)).include(r.get(0));
                a2a.createGroup("G2").include(l.get(1)).include(r.get(1));
                printer.createGroup("G3");
            }
            return new Pipeline(trigger, a2a, printer);
        };
        Log one = run(2, 2, true, grouping, "", List.of());
        Log grouped = run(2, 2, true, grouping, "", List.of("G0", "G1", "G2", "G3"));
        assertThat(grouped.events.get("printer"))
                .containsExactlyInAnyOrder(
                        "Task generated from 0 for 0 received by Sink 0 from 0",
                        "Task generated from 1 for 0 received by Sink 0 from 1",
                        "Task generated from 0 for 1 received by Sink 1 from 0",
                        "Task generated from 1 for 1 received by Sink 1 from 1");
        assertThat(grouped.sortedEvents()).isEqualTo(one.sortedEvents());
    }
}
