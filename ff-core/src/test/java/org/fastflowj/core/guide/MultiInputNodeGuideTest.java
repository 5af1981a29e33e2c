package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: a node that sees its input channels one by one (docs/building-blocks.md, "Multi-input node"). */
@Timeout(60)
class MultiInputNodeGuideTest {

    /** A farm worker with no emitter and no input is a source: worker i emits i, 10 + i, 20 + i, ... */
    static final class Producer extends Node<Void, Integer> {
        private int k;

        @Override
        protected Integer svc(Void none) {
            return k < 5 ? Integer.valueOf(10 * k++ + id()) : eos();
        }
    }

    // tag::multi-input[]
    /** Counts items per input channel; told of each channel's end separately. */
    static final class PerChannel extends MultiInputNode<Integer, Void> {
        final List<List<Integer>> seen = new ArrayList<>();
        final List<Integer> ended = new ArrayList<>();

        @Override
        protected void svcInit() {
            for (int i = 0; i < 3; i++) {
                seen.add(new ArrayList<>());
            }
        }

        @Override
        protected Void svc(Integer item) {
            seen.get(inputChannel()).add(item); // channel i = the i-th producer (farm worker i)
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ended.add(channel); // once per input channel, in the order they end
        }
    }
    // end::multi-input[]

    @Test
    void shouldTellWhichChannelEachItemCameFrom() {
        // tag::multi-input-run[]
        PerChannel perChannel = new PerChannel();
        new Pipeline(Farm.of(3, Producer::new), perChannel).runAndWaitEnd();

        assertThat(perChannel.seen.get(0)).containsExactly(0, 10, 20, 30, 40);
        assertThat(perChannel.seen.get(1)).containsExactly(1, 11, 21, 31, 41);
        assertThat(perChannel.seen.get(2)).containsExactly(2, 12, 22, 32, 42);
        assertThat(perChannel.ended).containsExactlyInAnyOrder(0, 1, 2);
        // end::multi-input-run[]
    }

    static final class EndWatcher extends Node<Integer, Void> {
        final List<Integer> ended = new ArrayList<>();
        int items;

        @Override
        protected Void svc(Integer item) {
            items++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ended.add(channel);
        }
    }

    @Test
    void shouldTellAPlainNodeOnceAfterAllItsInputsEnded() {
        EndWatcher plain = new EndWatcher();
        new Pipeline(Farm.of(3, Producer::new), plain).runAndWaitEnd();

        assertThat(plain.items).isEqualTo(15);
        assertThat(plain.ended).containsExactly(-1);
    }
}
