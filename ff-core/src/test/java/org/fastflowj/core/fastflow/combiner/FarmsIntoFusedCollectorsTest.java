package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_combine13.cpp: two farms whose workers are fused with a multi-output helper feed, all to all, two multi-input collector combiners of an inner all-to-all, whose sink gets every task. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmsIntoFusedCollectorsTest {

    static final class MiHelper extends MultiInputNode<Long, Long> {
        final Set<Integer> channels = new HashSet<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Long svc(Long in) {
            channels.add(inputChannel());
            return in;
        }
    }

    static final class MoHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Collector extends MultiOutputNode<Long, Long> {
        boolean toldEos;

        @Override
        protected Long svc(Long in) {
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            toldEos = true;
        }
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        long count;
        long sum;

        @Override
        protected Void svc(Long in) {
            count++;
            sum += in;
            return goOn();
        }
    }

    /** FastFlow fuses moHelper into the workers with combine_with_laststage; here the combiners are written out. */
    private static Pipeline producer(long tasks) {
        return new Pipeline(Farm.of(
                        Combiner.of(new FfTestNodes.Identity(), new MoHelper()),
                        Combiner.of(new FfTestNodes.Identity(), new MoHelper()))
                .emitter(new FfTestNodes.Range(1, tasks)));
    }

    @Test
    void shouldShuffleAllFourWorkersToBothCollectorsAndSinkEveryTask() {
        long tasks = 1000;
        MiHelper h1 = new MiHelper();
        MiHelper h2 = new MiHelper();
        Collector c1 = new Collector();
        Collector c2 = new Collector();
        Sink sink = new Sink();
        AllToAll right = new AllToAll()
                .firstSet(Combiner.of(h1, c1), Combiner.of(h2, c2))
                .secondSet(sink);
        new AllToAll()
                .firstSet(producer(tasks), producer(tasks))
                .secondSet(new Pipeline(right))
                .runAndWaitEnd();

        assertThat(h1.inputs).isEqualTo(4);
        assertThat(h2.inputs).isEqualTo(4);
        assertThat(h1.channels).isSubsetOf(0, 1, 2, 3);
        assertThat(h2.channels).isSubsetOf(0, 1, 2, 3);
        assertThat(c1.toldEos).isTrue();
        assertThat(c2.toldEos).isTrue();
        assertThat(sink.count).isEqualTo(2 * tasks);
        assertThat(sink.sum).isEqualTo(2 * tasks * (tasks + 1) / 2);
    }
}
