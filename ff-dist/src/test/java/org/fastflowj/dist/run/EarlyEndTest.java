package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer that ends early stops its producer in another group, as in one process: an endless source
 * ends once the only stage it feeds (in another group) is gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EarlyEndTest {
    @Test
    void shouldStopAnEndlessSourceWhenItsRemoteConsumerEnds() throws Exception {
        AtomicLong produced = new AtomicLong();
        Node<Void, Long> endless = new Node<>() {
            @Override
            protected Long svc(Void none) {
                return produced.incrementAndGet();
            }
        };
        AtomicLong taken = new AtomicLong();
        Node<Long, Void> firstThousand = new Node<>() {
            @Override
            protected Void svc(Long x) {
                return taken.incrementAndGet() == 1_000 ? eos() : goOn();
            }
        };
        Pipeline program = new Pipeline(endless, firstThousand);
        endless.createGroup("SRC");
        firstThousand.createGroup("SINK");

        LocalCluster.run(program, LocalCluster.config(List.of("SRC", "SINK"), "\"batchSize\": 16"), 40);

        assertThat(taken.get()).isEqualTo(1_000);
        assertThat(produced.get()).isGreaterThanOrEqualTo(1_000);
    }
}
