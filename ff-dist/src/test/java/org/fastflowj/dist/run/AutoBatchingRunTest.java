package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** With {@code "batchSize": "auto"} a stream that changes pace, full rate then a trickle, arrives whole. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AutoBatchingRunTest {
    /** 50 000 numbers at once, then 20 more 1 ms apart. */
    static final class Burst extends Node<Void, Long> {
        private long next;

        @Override
        protected Long svc(Void none) throws InterruptedException {
            if (next == 50_020) {
                return eos();
            }
            if (next >= 50_000) {
                Thread.sleep(1);
            }
            return next++;
        }
    }

    @Test
    void shouldDeliverEveryItemWhateverThePace() throws Exception {
        AtomicLong sum = new AtomicLong();
        AtomicLong count = new AtomicLong();
        Node<Void, Long> source = new Burst();
        Node<Long, Void> sink = Node.sink(x -> {
            sum.addAndGet(x);
            count.incrementAndGet();
        });
        source.createGroup("A");
        sink.createGroup("B");

        LocalCluster.run(
                new Pipeline(source, sink), LocalCluster.config(List.of("A", "B"), "\"batchSize\": \"auto\""), 45);

        assertThat(count.get()).isEqualTo(50_020);
        assertThat(sum.get()).isEqualTo(50_019L * 50_020 / 2);
    }
}
