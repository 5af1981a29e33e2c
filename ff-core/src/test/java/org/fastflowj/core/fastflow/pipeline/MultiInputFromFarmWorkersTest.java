package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_multi_input6.cpp: a multi-input stage after a farm of source workers tells each worker's channel. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiInputFromFarmWorkersTest {

    static final long N = 10;

    /** Source worker: worker i sends i+1..N. */
    static final class W extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = id() + 1; i <= N; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class PerChannel extends MultiInputNode<Long, Void> {
        final List<List<Long>> byChannel = new ArrayList<>();
        final List<Integer> ended = new ArrayList<>();

        @Override
        protected void svcInit() {
            for (int i = 0; i < inputChannels(); i++) {
                byChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Void svc(Long task) {
            byChannel.get(inputChannel()).add(task);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ended.add(channel);
        }
    }

    @Test
    void shouldTellWhichWorkerEachItemCameFrom() {
        PerChannel stage = new PerChannel();
        new Pipeline(Farm.of(3, W::new), stage).runAndWaitEnd();

        assertThat(stage.byChannel).hasSize(3);
        for (int c = 0; c < 3; c++) {
            assertThat(stage.byChannel.get(c))
                    .containsExactlyElementsOf(
                            LongStream.rangeClosed(c + 1, N).boxed().toList());
        }
        assertThat(stage.ended).containsExactlyInAnyOrder(0, 1, 2);
    }
}
