package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Guide: how a run waits, queues and maps threads (docs/building-blocks.md, "Run options"). */
@Timeout(60)
class RunOptionsGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next < count ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Sum extends Node<Integer, Void> {
        long total;

        @Override
        protected Void svc(Integer x) {
            total += x;
            return goOn();
        }
    }

    static long sumBelow(int n) {
        return (long) n * (n - 1) / 2;
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldGiveTheSameResultWithEveryWaitStrategy(WaitStrategy strategy) {
        // tag::wait-strategy[]
        Sum sum = new Sum();
        new Pipeline(new Numbers(10_000), Farm.of(3, () -> Node.of((Integer x) -> x)), sum)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy)); // BACKOFF is the default

        assertThat(sum.total).isEqualTo(sumBelow(10_000));
        // end::wait-strategy[]
    }

    @Test
    void shouldBusySpinOnlyWhenEveryThreadHasACore() {
        // tag::busy-spin[]
        Sum sum = new Sum(); // 2 threads: fine on 2 or more cores
        new Pipeline(new Numbers(10_000), sum)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(WaitStrategy.BUSY_SPIN));

        assertThat(sum.total).isEqualTo(sumBelow(10_000));
        // end::busy-spin[]
    }

    @Test
    void shouldWorkWithTinyQueues() {
        // tag::queue-capacity[]
        Sum sum = new Sum();
        new Pipeline(new Numbers(5_000), Node.of((Integer x) -> x), sum)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(1)); // default 2048

        assertThat(sum.total).isEqualTo(sumBelow(5_000));
        // end::queue-capacity[]
    }

    @Test
    void shouldNeverBlockAProducerOnUnboundedQueues() {
        // tag::unbounded[]
        Sum sum = new Sum();
        Pipeline pipe = new Pipeline(new Numbers(50_000), sum);
        pipe.runAndWaitEnd(RunOptions.defaults().queueCapacity(16).unboundedQueues(true));

        assertThat(sum.total).isEqualTo(sumBelow(50_000));
        // the source never waited on a full channel (it may have used memory instead)
        assertThat(pipe.stats().node("ff-pipe1-stage0").orElseThrow().blockedOutputNanos())
                .isZero();
        // end::unbounded[]
    }

    @Test
    void shouldPinThreadsInGraphOrderWherePossible() {
        // tag::thread-mapping[]
        Sum sum = new Sum();
        Pipeline pipe = new Pipeline(new Numbers(1_000), Node.of((Integer x) -> x), sum);
        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping("0,1")); // stage0 -> 0, stage1 -> 1, stage2 -> 0

        assertThat(sum.total).isEqualTo(sumBelow(1_000));
        // pinning is a hint: where the platform refuses it, the run goes on unpinned (cpu -1) and logs why once
        List<Integer> mapped = List.of(0, 1, 0);
        List<NodeStats> nodes = pipe.stats().nodes();
        for (int i = 0; i < nodes.size(); i++) {
            assertThat(nodes.get(i).cpu()).isIn(mapped.get(i), -1);
        }
        // end::thread-mapping[]
    }

    @Test
    void shouldRejectAThreadMappingThatIsNotAListOfCpus() {
        assertThatThrownBy(() -> RunOptions.defaults().threadMapping("0,x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x' is not a CPU number");
    }
}
