package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group5.cpp and test_group6.cpp: pipeline(a2a(S | W), a2a(T | K))
 * whose W and T are combiners of a multi-input and a multi-output node; every node sees which producer sent each
 * message (S_i -> W_j, W_j -> T_k, T_k -> K) exactly as in one process, with both all-to-alls cut in groups.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoAllToAllsOfCombinersTest {

    static final class S extends MultiOutputNode<Void, String> {
        @Override
        protected String svc(Void none) {
            for (int i = 0; i < outputChannels(); i++) {
                sendOutTo("[S" + id() + " for W" + i + "]", i);
            }
            return eos();
        }
    }

    /** The multi-input half of a combiner: logs what came from which channel, passes it on. */
    static final class Left extends MultiInputNode<String, String> {
        private final Log log;
        private final String name;

        Left(Log log, String name) {
            this.log = log;
            this.name = name;
        }

        @Override
        protected String svc(String in) {
            log.event(name + id(), in + " from " + inputChannel());
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            log.event(name + id(), "eos " + channel);
        }
    }

    /** W_right: for each input, one new message to each T. */
    static final class WRight extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String in) {
            for (int i = 0; i < outputChannels(); i++) {
                sendOutTo("[W" + id() + " to T" + i + "]", i);
            }
            return goOn();
        }
    }

    /** T_right: passes on. */
    static final class TRight extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String in) {
            return in;
        }
    }

    static final class K extends MultiInputNode<String, Void> {
        private final Log log;

        K(Log log) {
            this.log = log;
        }

        @Override
        protected Void svc(String in) {
            log.event("K", in + " from " + inputChannel());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("K", "eos " + channel);
        }
    }

    private static Log run(boolean test5, boolean grouped) throws Exception {
        Log log = new Log();
        List<S> s = List.of(new S(), new S(), new S());
        List<Combiner<String, String>> w = new ArrayList<>();
        List<Combiner<String, String>> t = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            w.add(Combiner.of(new Left(log, "W"), new WRight()));
            t.add(Combiner.of(new Left(log, "T"), new TRight()));
        }
        K k = new K(log);
        AllToAll a2a1 = new AllToAll().firstSet(s).secondSet(w);
        AllToAll a2a2 = new AllToAll().firstSet(t).secondSet(k);
        Pipeline pipe = new Pipeline(a2a1, a2a2);
        List<String> groups = List.of();
        if (grouped && test5) {
            a2a1.createGroup("G1")
                    .include(s.get(0))
                    .include(s.get(1))
                    .include(w.get(0))
                    .include(w.get(1));
            a2a1.createGroup("G2").include(s.get(2)).include(w.get(2));
            a2a2.createGroup("G3");
            groups = List.of("G1", "G2", "G3");
        } else if (grouped) {
            a2a1.createGroup("G1");
            a2a2.createGroup("G2");
            groups = List.of("G1", "G2");
        }
        DistributedPrograms.run(pipe, "", groups);

        for (int j = 0; j < 3; j++) {
            List<String> expectedW = new ArrayList<>();
            List<String> expectedT = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                expectedW.add("[S" + i + " for W" + j + "] from " + i);
                expectedW.add("eos " + i);
                for (int rep = 0; rep < 3; rep++) { // W_i sends T_j one message per message it got
                    expectedT.add("[W" + i + " to T" + j + "] from " + i);
                }
            }
            expectedT.add("eos 0"); // a multi-input first node of a combiner: one eosNotify per channel
            expectedT.add("eos 1");
            expectedT.add("eos 2");
            assertThat(log.events.get("W" + j)).as("W" + j).containsExactlyInAnyOrderElementsOf(expectedW);
            assertThat(log.events.get("T" + j)).as("T" + j).containsExactlyInAnyOrderElementsOf(expectedT);
        }
        List<String> expectedK = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 3; i++) {
                for (int rep = 0; rep < 3; rep++) {
                    expectedK.add("[W" + i + " to T" + j + "] from " + j);
                }
            }
            expectedK.add("eos " + j);
        }
        assertThat(log.events.get("K")).containsExactlyInAnyOrderElementsOf(expectedK);
        return log;
    }

    /** test_group5: G1 = {S1, S2, W1, W2}, G2 = {S3, W3}, G3 = the second all-to-all. */
    @Test
    void shouldRouteEveryMessageAsInOneProcessWithTheFirstAllToAllCutInTwo() throws Exception {
        assertThat(run(true, true).sortedEvents()).isEqualTo(run(true, false).sortedEvents());
    }

    /** test_group6: each all-to-all is a group. */
    @Test
    void shouldRouteEveryMessageAsInOneProcessWithEachAllToAllAGroup() throws Exception {
        assertThat(run(false, true).sortedEvents()).isEqualTo(run(false, false).sortedEvents());
    }
}
