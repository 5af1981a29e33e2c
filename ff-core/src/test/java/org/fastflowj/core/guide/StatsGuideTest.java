package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: per-node statistics after a run (docs/building-blocks.md, "Statistics"). */
@Timeout(60)
class StatsGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private int next;

        @Override
        protected Integer svc(Void none) {
            return next < 1_000 ? Integer.valueOf(next++) : eos();
        }
    }

    static final class EvensOnly extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x % 2 == 0 ? x : goOn();
        }
    }

    static final class Drop extends Node<Integer, Void> {
        @Override
        protected Void svc(Integer x) {
            return goOn();
        }
    }

    @Test
    void shouldCountItemsPerNode() {
        // tag::stats[]
        Pipeline pipe = new Pipeline(new Numbers(), Farm.of(2, EvensOnly::new), new Drop());
        pipe.runAndWaitEnd();

        RunStats stats = pipe.stats(); // complete once waitEnd() returned
        System.out.print(stats.toTable());

        NodeStats source = stats.node("ff-pipe1-stage0").orElseThrow();
        NodeStats emitter = stats.node("ff-farm1-emitter").orElseThrow();
        NodeStats sink = stats.node("ff-pipe1-stage2").orElseThrow();
        assertThat(source.itemsIn()).isZero(); // a source reads nothing
        assertThat(source.itemsOut()).isEqualTo(1_000); // EOS is not counted
        assertThat(emitter.itemsIn()).isEqualTo(1_000); // the default emitter forwards
        assertThat(sink.itemsIn()).isEqualTo(500); // the workers dropped the odd ones
        assertThat(stats.nodes())
                .extracting(NodeStats::name)
                .containsExactly(
                        "ff-pipe1-stage0",
                        "ff-farm1-emitter",
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-pipe1-stage2");
        // end::stats[]
        assertThat(stats.toTable()).contains("node", "items in", "ff-farm1-worker1");
    }
}
