package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_farm+A2A3.cpp and tests/test_farm+A2A4.cpp: a farm whose only
 * worker is an all-to-all of pipelines (L: W1 then a multi-output W2 or a farm of them; R: pipelines
 * of all-to-alls of combiners, or of farms) brings all N tasks to the farm's multi-input collector,
 * from each of the all-to-all's exits.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmOfAllToAllOfPipelinesTest {

    private static final int N = 1000;

    static final class S1 extends Node<Void, String> {
        @Override
        protected String svc(Void none) {
            for (int i = 0; i < N; i++) {
                sendOut("[Task generated from S1 for Worker");
            }
            return eos();
        }
    }

    /** Farm emitter: alternates between its two output channels. */
    static final class S2 extends MultiOutputNode<String, String> {
        private long next;
        int outputs;

        @Override
        protected String svc(String in) {
            outputs = outputChannels();
            long idx = next++ % 2;
            sendOutTo(in + idx + "]", (int) idx);
            return goOn();
        }
    }

    static final class W1 extends Node<String, String> {
        int seen;

        @Override
        protected String svc(String in) {
            seen++;
            return in;
        }
    }

    /** Deals new tasks round-robin over its output channels, starting at its own index. */
    static final class W2 extends MultiOutputNode<String, String> {
        private long next;
        int outputs;

        @Override
        protected void svcInit() {
            next = id();
        }

        @Override
        protected String svc(String in) {
            outputs = outputChannels();
            long idx = next++ % outputs;
            sendOutTo("[Task generated from W2-" + id() + " to T" + idx + "]", (int) idx);
            return goOn();
        }
    }

    static final class TLeft extends MultiInputNode<String, String> {
        @Override
        protected String svc(String in) {
            return in;
        }
    }

    static final class TRight extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String in) {
            return in;
        }
    }

    static final class TRight2 extends Node<String, String> {
        @Override
        protected String svc(String in) {
            return in;
        }
    }

    static final class S3 extends MultiInputNode<String, Void> {
        final List<Integer> channels = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(String in) {
            channels.add(inputChannel());
            return goOn();
        }
    }

    private static BuildingBlock t() {
        return Combiner.of(new TLeft(), new TRight());
    }

    private static List<BuildingBlock> times(int n, Supplier<BuildingBlock> factory) {
        List<BuildingBlock> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(factory.get());
        }
        return list;
    }

    private static void assertFromEveryExit(S3 s3, int exits) {
        assertThat(s3.inputs).isEqualTo(exits);
        assertThat(s3.channels).hasSize(N);
        for (int c = 0; c < exits; c++) {
            assertThat(s3.channels).as("items from exit %d", c).contains(c);
        }
    }

    @Test
    void shouldCollectEveryTaskFromTheFourCombinerExits() {
        W1 w1a = new W1();
        W1 w1b = new W1();
        W2 w2a = new W2();
        W2 w2b = new W2();
        AllToAll a2a = new AllToAll()
                .firstSet(new Pipeline(w1a, w2a), new Pipeline(w1b, w2b))
                .secondSet(
                        new Pipeline(new AllToAll().firstSet(t(), t()).secondSet(t(), t())),
                        new Pipeline(new AllToAll().firstSet(t(), t()).secondSet(t(), t())));
        S2 s2 = new S2();
        S3 s3 = new S3();
        new Pipeline(new S1(), Farm.of(a2a).emitter(s2).collector(s3)).runAndWaitEnd();

        assertThat(s2.outputs).isEqualTo(2);
        assertThat(w1a.seen).isEqualTo(N / 2);
        assertThat(w1b.seen).isEqualTo(N / 2);
        assertThat(w2a.outputs).isEqualTo(4); // the four L-Workers of the two inner all-to-alls
        assertFromEveryExit(s3, 4);
    }

    @Test
    void shouldCollectEveryTaskFromTheSixFarmWorkerExits() {
        Farm farm1 = Farm.of(times(3, W2::new));
        Farm farm2 = Farm.of(times(3, W2::new));
        Farm farm3 = Farm.of(times(3, TRight2::new)).emitter(Combiner.of(new TLeft(), new TRight()));
        Farm farm4 = Farm.of(times(3, TRight2::new)).emitter(Combiner.of(new TLeft(), new TRight()));
        AllToAll a2a = new AllToAll()
                .firstSet(new Pipeline(new W1(), farm1), new Pipeline(new W1(), farm2))
                .secondSet(
                        new Pipeline(new AllToAll().firstSet(t(), t()).secondSet(new Pipeline(farm3))),
                        new Pipeline(new AllToAll().firstSet(t(), t()).secondSet(new Pipeline(farm4))));
        S3 s3 = new S3();
        new Pipeline(new S1(), Farm.of(a2a).emitter(new S2()).collector(s3)).runAndWaitEnd();

        assertFromEveryExit(s3, 6);
    }
}
