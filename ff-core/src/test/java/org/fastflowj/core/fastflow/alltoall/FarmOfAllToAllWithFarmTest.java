package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all14.cpp: a farm whose only worker is an all-to-all whose R-Worker is a pipeline of a farm (its emitter fused with a multi-input proxy) carries the whole stream, the proxy seeing only the two L-Workers' channels. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmOfAllToAllWithFarmTest {

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Multi-input proxy fused in front of the inner farm's emitter: checks the channel of every item. */
    static final class ProxyNode extends MultiInputNode<Long, Long> {
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

    static final class Gatherer extends MultiInputNode<Long, Void> {
        long count;
        long sum;

        @Override
        protected Void svc(Long in) {
            count++;
            sum += in;
            return goOn();
        }
    }

    @Test
    void shouldCarryEveryItemThroughTheNestedFarmAndSeeOnlyTheTwoLWorkerChannels() {
        long streamLength = 1000;
        ProxyNode proxy = new ProxyNode();
        // FastFlow builds the fused emitter with combine_with_firststage; here it is written out directly.
        Farm inner = Farm.of(new Pass(), new Pass()).emitter(Combiner.of(proxy, new Pass()));
        AllToAll a2a = new AllToAll().firstSet(new Pass(), new Pass()).secondSet(new Pipeline(inner));
        Gatherer gatherer = new Gatherer();
        new Pipeline(new FfTestNodes.Range(1, streamLength), Farm.of(a2a), gatherer).runAndWaitEnd();

        assertThat(proxy.inputs).isEqualTo(2);
        assertThat(proxy.channels).isSubsetOf(0, 1);
        assertThat(gatherer.count).isEqualTo(streamLength);
        assertThat(gatherer.sum).isEqualTo(streamLength * (streamLength + 1) / 2);
    }
}
