package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Feedback channels (wrapAround) inside a group and across groups end as in one process. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FeedbackAcrossGroupsTest {
    /** Sends {@code tasks} tasks round the loop on its first call, ends (eos) when all came back. */
    static final class LoopHead extends Node<Integer, Integer> {
        private final int tasks;
        final List<Integer> back = Collections.synchronizedList(new ArrayList<>());

        LoopHead(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Integer svc(Integer in) {
            if (in == null) {
                for (int i = 0; i < tasks; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            back.add(in);
            return back.size() == tasks ? eos() : goOn();
        }
    }

    @Test
    void shouldCloseALoopWhoseLastStageIsInAnotherGroup() throws Exception {
        LoopHead head = new LoopHead(2_000);
        Node<Integer, Integer> lap = Node.of(x -> x + 1_000_000);
        Pipeline loop = new Pipeline(head, lap).wrapAround();
        loop.createGroup("HEAD").include(head);
        loop.createGroup("LAP").include(lap);

        LocalCluster.run(loop, LocalCluster.config(List.of("HEAD", "LAP"), "\"batchSize\": 4"), 60);

        assertThat(head.back)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 2_000)
                        .map(x -> x + 1_000_000)
                        .boxed()
                        .toList());
    }

    /**
     * A stream enters a loop whose head is in one group and whose lap is in another: the head sends EOS
     * forward when the stream ended and keeps taking fed-back items until the remote lap is done, which
     * reaches it as the end of its feedback channel (DONE across the network).
     */
    @Test
    void shouldDrainALoopFedByAStreamAcrossGroups() throws Exception {
        assertThat(streamThroughLoop(true)).hasSize(500);
        assertThat(streamThroughLoop(false)).hasSize(500);
    }

    private static List<Integer> streamThroughLoop(boolean splitLoop) throws Exception {
        List<Integer> done = Collections.synchronizedList(new ArrayList<>());
        Node<Void, Integer> source = Node.source(IntStream.range(0, 500).boxed().toList());
        Node<Integer, Integer> head = new MultiInputNode<>() {
            private int outstanding;
            private boolean ended;

            @Override
            protected Integer svc(Integer in) {
                if (!fromFeedback()) {
                    outstanding++;
                    return in;
                }
                done.add(in);
                outstanding--;
                if (ended && outstanding == 0) {
                    sendOut(eos());
                }
                return goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                ended = true;
                if (outstanding == 0) {
                    sendOut(eos());
                }
            }
        };
        Node<Integer, Integer> lap = Node.of(x -> -x);
        Pipeline loop = new Pipeline(head, lap).wrapAround();
        Pipeline program = new Pipeline(source, loop);
        source.createGroup("SRC");
        if (splitLoop) {
            loop.createGroup("HEAD").include(head);
            loop.createGroup("LAP").include(lap);
            LocalCluster.run(program, LocalCluster.config(List.of("SRC", "HEAD", "LAP"), ""), 60);
        } else {
            loop.createGroup("LOOP");
            LocalCluster.run(program, LocalCluster.config(List.of("SRC", "LOOP"), ""), 60);
        }
        return done;
    }

    @Test
    void shouldRunAWrappedAroundFarmInsideOneGroup() throws Exception {
        List<Integer> retired = Collections.synchronizedList(new ArrayList<>());
        Node<Integer, Integer> emitter = new MultiInputNode<>() {
            private int outstanding;
            private boolean ended;

            @Override
            protected Integer svc(Integer in) {
                if (!fromFeedback()) {
                    outstanding++;
                    return in * 8; // halved by workers until odd
                }
                if (in % 2 == 0) {
                    return in;
                }
                retired.add(in);
                if (--outstanding == 0 && ended) {
                    sendOut(eos());
                }
                return goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                ended = true;
                if (outstanding == 0) {
                    sendOut(eos());
                }
            }
        };
        Farm farm =
                Farm.of(3, () -> Node.of((Integer x) -> x / 2)).emitter(emitter).wrapAround();
        Node<Void, Integer> source =
                Node.source(IntStream.range(0, 300).map(x -> 2 * x + 1).boxed().toList());
        Pipeline program = new Pipeline(source, farm);
        source.createGroup("SRC");
        farm.createGroup("FARM");

        LocalCluster.run(program, LocalCluster.config(List.of("SRC", "FARM"), ""), 60);

        assertThat(retired)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, 300).map(x -> 2 * x + 1).boxed().toList());
    }
}
