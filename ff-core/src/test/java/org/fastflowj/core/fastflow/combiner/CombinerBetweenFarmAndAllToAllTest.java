package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Identity;
import org.fastflowj.core.testing.FfTestNodes.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine3.cpp: a combiner (multi-input then multi-output) between a
 * collector-less farm and an all-to-all, routing each item to L-Worker {@code item % 2}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombinerBetweenFarmAndAllToAllTest {

    static final class ByModulo3 extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 100; i++) {
                sendOutTo(i, (int) (i % 3));
            }
            return eos();
        }
    }

    static final class Filter1 extends MultiInputNode<Long, Long> {
        final List<Integer> channels = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            channels.add(inputChannel());
            return in;
        }
    }

    static final class Filter2 extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            sendOutTo(in, (int) (in % 2));
            return goOn();
        }
    }

    static final class LWorker extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            return in;
        }
    }

    @Test
    void shouldRouteFromTheCombinerToTheChosenLWorker() {
        Filter1 f1 = new Filter1();
        LWorker l0 = new LWorker();
        LWorker l1 = new LWorker();
        Record f3 = new Record();
        Farm farm = Farm.of(new Identity(), new Identity(), new Identity()).emitter(new ByModulo3());
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(f3);
        new Pipeline(farm, Combiner.of(f1, new Filter2()), a2a).runAndWaitEnd();

        assertThat(l0.got)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 100)
                        .filter(i -> i % 2 == 0)
                        .boxed()
                        .toList());
        assertThat(l1.got)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 100)
                        .filter(i -> i % 2 == 1)
                        .boxed()
                        .toList());
        assertThat(f3.items)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 100).boxed().toList());
        assertThat(f1.channels).hasSize(100).containsOnly(0, 1, 2);
        assertThat(f1.channels.stream().filter(c -> c == 0).count()).isEqualTo(33); // 3, 6, ..., 99
    }
}
