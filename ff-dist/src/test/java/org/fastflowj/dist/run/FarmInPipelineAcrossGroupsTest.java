package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.apps.StreamLoopHead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Farms inside a pipeline whose workers 2 and 3 run in group W, away from the farm's group M and from the
 * stages around it: the output equals the one-process run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FarmInPipelineAcrossGroupsTest {
    private static final int ITEMS = 300;

    static final class Sink extends MultiInputNode<Long, Void> {
        final List<Long> received = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> ends = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Void svc(Long x) {
            received.add(x);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add(channel);
        }
    }

    private static List<Node<Long, Long>> squarers() {
        List<Node<Long, Long>> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(Node.of((Long x) -> x * x));
        }
        return workers;
    }

    /** source (S) -> farm without collector (M, workers 2 and 3 in W) -> sink (K): 4 input channels. */
    private static Sink collectorless(boolean grouped) throws Exception {
        Node<Void, Long> source = Node.source(LongStream.range(0, ITEMS).boxed().toList());
        List<Node<Long, Long>> workers = squarers();
        Farm farm = Farm.of(workers);
        Sink sink = new Sink();
        Pipeline program = new Pipeline(source, farm, sink);
        source.createGroup("S");
        farm.createGroup("M");
        farm.createGroup("W").include(workers.get(2)).include(workers.get(3));
        sink.createGroup("K");
        if (grouped) {
            LocalCluster.run(program, LocalCluster.config(List.of("S", "M", "W", "K"), "\"batchSize\": 4"), 90);
        } else {
            program.runAndWaitEnd();
        }
        return sink;
    }

    @Test
    void shouldSendRemoteWorkersOutputStraightToTheNextStage() throws Exception {
        Sink grouped = collectorless(true);
        Sink whole = collectorless(false);
        assertThat(grouped.received.stream().sorted().toList())
                .isEqualTo(whole.received.stream().sorted().toList())
                .isEqualTo(LongStream.range(0, ITEMS).map(x -> x * x).boxed().toList());
        assertThat(grouped.ends).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    /** Halves each item; every half goes back to the emitter and forward to the collector. */
    static final class Halver extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long x) {
            sendFeedbackTo(x / 2, 0);
            return x / 2;
        }
    }

    private record LoopRun(List<Long> retired, List<Long> collected) {}

    /** The emitter sends 8x round until it is halved back to x; the collector sees 4x, 2x and x. */
    private static LoopRun feedbackWithCollector(boolean grouped) throws Exception {
        List<Long> odd = LongStream.range(0, ITEMS).map(x -> 2 * x + 1).boxed().toList();
        Node<Void, Long> source = Node.source(odd);
        StreamLoopHead head = new StreamLoopHead(x -> x * 8, x -> x % 2 == 0);
        List<Halver> workers = List.of(new Halver(), new Halver(), new Halver(), new Halver());
        Sink collector = new Sink();
        Farm farm = Farm.of(workers).emitter(head).collector(collector).feedbackFromWorkers();
        Pipeline program = new Pipeline(source, farm);
        source.createGroup("S");
        farm.createGroup("M");
        farm.createGroup("W").include(workers.get(2)).include(workers.get(3));
        if (grouped) {
            LocalCluster.run(program, LocalCluster.config(List.of("S", "M", "W"), ""), 90);
        } else {
            program.runAndWaitEnd();
        }
        return new LoopRun(
                head.retired.stream().sorted().toList(),
                collector.received.stream().sorted().toList());
    }

    @Test
    void shouldFeedRemoteWorkersResultsBackWhileTheirOutputGoesToTheCollector() throws Exception {
        LoopRun grouped = feedbackWithCollector(true);
        LoopRun whole = feedbackWithCollector(false);
        assertThat(grouped).isEqualTo(whole);
        assertThat(grouped.retired()).hasSize(ITEMS);
        assertThat(grouped.collected()).hasSize(3 * ITEMS);
    }
}
