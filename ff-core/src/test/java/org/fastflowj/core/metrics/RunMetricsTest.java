package org.fastflowj.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Links and odd names, which a one-process run does not have, fed from made-up statistics. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunMetricsTest {
    private final AtomicLong messages = new AtomicLong(7);
    private final Supplier<RunStats> stats = () -> new RunStats(
            List.of(
                    new NodeStats("ff-send-G2", 5, 5, 0, 1_500_000_000L, 0, -1),
                    new NodeStats("odd \"name\"\\\n,=", 1, 0, 0, 0, 0, 3)),
            List.of(new LinkStats("G1 -> G2", messages.get(), 1024, 2, 250_000_000L)));

    @Test
    void shouldWriteLinksSecondsAndEscapedLabelsInPrometheusText() {
        String text = PrometheusText.format(stats.get());

        assertThat(text)
                .contains("fastflowj_node_blocked_input_seconds_total{node=\"ff-send-G2\"} 1.5\n")
                .contains("fastflowj_node_items_in_total{node=\"odd \\\"name\\\"\\\\\\n,=\"} 1\n")
                .contains("# TYPE fastflowj_link_messages_total counter\n")
                .contains("fastflowj_link_messages_total{link=\"G1 -> G2\"} 7\n")
                .contains("fastflowj_link_bytes_total{link=\"G1 -> G2\"} 1024\n")
                .contains("fastflowj_link_credit_wait_seconds_total{link=\"G1 -> G2\"} 0.25\n");
        assertThat(text.lines().filter(l -> !l.startsWith("#")))
                .allMatch(l -> l.matches("fastflowj_\\w+\\{(node|link)=\".*\"} [0-9.]+"));
    }

    @Test
    void shouldRegisterLinkMBeansReadLiveAndUnregisterOnClose() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        CountDownLatch runEnds = new CountDownLatch(1);
        RunMetrics metrics = RunMetrics.open(true, -1);
        metrics.show(stats, () -> {
            try {
                runEnds.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            ObjectName link = server.queryNames(new ObjectName("org.fastflowj:type=Link,*"), null).stream()
                    .findFirst()
                    .orElseThrow();
            assertThat(server.getAttribute(link, "Name")).isEqualTo("G1 -> G2");
            assertThat(server.getAttribute(link, "Messages")).isEqualTo(7L);
            messages.set(9);
            assertThat(server.getAttribute(link, "Messages")).isEqualTo(9L);
            assertThat(server.queryNames(new ObjectName("org.fastflowj:type=Node,*"), null))
                    .extracting(n -> server.getAttribute(n, "Name"))
                    .containsExactlyInAnyOrder("ff-send-G2", "odd \"name\"\\\n,=");
            assertThat(metrics.port()).isEqualTo(-1);
        } finally {
            runEnds.countDown(); // the watcher closes the metrics once the run ended
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!server.queryNames(new ObjectName("org.fastflowj:*"), null).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.queryNames(new ObjectName("org.fastflowj:*"), null)).isEmpty();
    }
}
