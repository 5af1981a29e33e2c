package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.apps.StreamLoopHead;
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

    private static List<Long> streamThroughLoop(boolean splitLoop) throws Exception {
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, 500).boxed().iterator());
        StreamLoopHead head = new StreamLoopHead(x -> x, x -> false);
        Node<Long, Long> lap = Node.of(x -> -x);
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
        return head.retired;
    }

    @Test
    void shouldRunAWrappedAroundFarmInsideOneGroup() throws Exception {
        StreamLoopHead emitter = new StreamLoopHead(x -> x * 8, x -> x % 2 == 0); // halved until odd
        Farm farm =
                Farm.of(3, () -> Node.of((Long x) -> x / 2)).emitter(emitter).wrapAround();
        List<Long> odd = LongStream.range(0, 300).map(x -> 2 * x + 1).boxed().toList();
        Node<Void, Long> source = Node.source(odd);
        Pipeline program = new Pipeline(source, farm);
        source.createGroup("SRC");
        farm.createGroup("FARM");

        LocalCluster.run(program, LocalCluster.config(List.of("SRC", "FARM"), ""), 60);

        assertThat(emitter.retired).containsExactlyInAnyOrderElementsOf(odd);
    }
}
