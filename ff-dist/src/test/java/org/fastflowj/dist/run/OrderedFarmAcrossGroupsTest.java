package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.apps.OrderedFarmApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ordered farm whose workers run in three groups (one JVM here; {@code OrderedFarmProcessTest} runs one
 * JVM per group): its output is the input's order whatever the workers' speeds, round-robin and on demand,
 * with tasks of no, one and two outputs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrderedFarmAcrossGroupsTest {
    private static final long ITEMS = 600;

    private static List<Long> runGrouped(boolean onDemand, String topLevel) throws Exception {
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Pipeline program = OrderedFarmApp.build(onDemand, ITEMS, out);
        LocalCluster.run(program, LocalCluster.config(OrderedFarmApp.GROUPS, topLevel), 100);
        return out;
    }

    @Test
    void shouldKeepTheInputOrderRoundRobinAcrossGroups() throws Exception {
        assertThat(runGrouped(false, "\"batchSize\": 8")).isEqualTo(OrderedFarmApp.expected(ITEMS));
    }

    @Test
    void shouldKeepTheInputOrderOnDemandAcrossGroups() throws Exception {
        assertThat(runGrouped(true, "\"batchSize\": 8")).isEqualTo(OrderedFarmApp.expected(ITEMS));
    }

    @Test
    void shouldKeepTheInputOrderWithBatchesOfOne() throws Exception {
        assertThat(runGrouped(false, "\"batchSize\": 1")).isEqualTo(OrderedFarmApp.expected(ITEMS));
    }

    @Test
    void shouldMatchTheOneProcessRun() {
        List<Long> out = new ArrayList<>();
        OrderedFarmApp.build(true, ITEMS, out).runAndWaitEnd();
        assertThat(out).isEqualTo(OrderedFarmApp.expected(ITEMS));
    }

    /**
     * Two remote workers behind one receiver, one slow and one emitting many items per task on short
     * channels: the collector waits for the slow one while the other's outputs pile up in front of them.
     */
    @Test
    void shouldNotStallWhenARemoteWorkerGetsAheadOfTheOneTheCollectorWaitsFor() throws Exception {
        Node<Long, Long> burst = new Node<>() {
            @Override
            protected Long svc(Long x) {
                for (int i = 0; i < 99; i++) {
                    sendOut(x * 1000 + i);
                }
                return x * 1000 + 99;
            }
        };
        Node<Long, Long> slowBurst = new Node<>() {
            @Override
            protected Long svc(Long x) throws InterruptedException {
                Thread.sleep(2); // the collector waits for this one while the other runs ahead
                for (int i = 0; i < 99; i++) {
                    sendOut(x * 1000 + i);
                }
                return x * 1000 + 99;
            }
        };
        Farm farm = Farm.of(slowBurst, burst).ordered(64);
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Node<Long, Void> sink = Node.sink(out::add);
        Pipeline program = new Pipeline(
                Node.source(
                        () -> java.util.stream.LongStream.range(0, 200).boxed().iterator()),
                farm,
                sink);
        program.createGroup("M");
        farm.createGroup("W").include(slowBurst).include(burst); // one receiver in M carries both
        LocalCluster.run(
                program,
                LocalCluster.config(List.of("M", "W"), "\"batchSize\": 16"),
                SerializationConfig.builder().build(),
                RunOptions.defaults().queueCapacity(8),
                100);
        List<Long> expected = new ArrayList<>();
        for (long x = 0; x < 200; x++) {
            for (int i = 0; i < 100; i++) {
                expected.add(x * 1000 + i);
            }
        }
        assertThat(out).isEqualTo(expected);
    }
}
