package org.fastflowj.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each channel's fill as the run measures it: a sink stuck on its first item lets its input channel fill
 * to its capacity, which the statistics, {@code /metrics} and {@code /api/stats} all show while it is
 * stuck, and which drains to 0 once it goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueueFillTest {
    /** Not a power of two: the channel's limit, not the size of the array under it, is what fills. */
    private static final int CAPACITY = 10;

    private static final int ITEMS = 1_000;

    @Test
    void shouldShowTheInputChannelOfAStuckSinkFullToItsCapacity() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stuck = new CountDownLatch(1);
        Pipeline pipe = new Pipeline(
                Node.<Integer>source("numbers", () -> IntStream.range(0, ITEMS).iterator()),
                Node.<Integer>sink("stuck", x -> {
                    if (x == 0) {
                        stuck.countDown();
                        awaitQuietly(release);
                    }
                }));
        pipe.run(RunOptions.defaults().queueCapacity(CAPACITY).ui(0));
        try {
            assertThat(stuck.await(30, TimeUnit.SECONDS)).isTrue();
            QueueStats full = awaitQueued(pipe, CAPACITY);

            assertThat(full.from()).isEqualTo("numbers");
            assertThat(full.to()).isEqualTo("stuck");
            assertThat(full.feedback()).isFalse();
            assertThat(full.capacity()).isEqualTo(CAPACITY);
            assertThat(full.fill()).isEqualTo(1.0);
            assertThat(pipe.stats().node("numbers").orElseThrow().itemsOut())
                    .as("the source put out the items waiting and the one the sink holds")
                    .isEqualTo(CAPACITY + 1);

            HttpClient client = HttpClient.newHttpClient();
            String metrics = get(client, pipe, "/metrics");
            assertThat(metrics)
                    .contains("# TYPE fastflowj_queue_items gauge\n")
                    .contains("fastflowj_queue_items{from=\"numbers\",to=\"stuck\"} " + CAPACITY + "\n")
                    .contains("fastflowj_queue_capacity_items{from=\"numbers\",to=\"stuck\"} " + CAPACITY + "\n");
            assertThat(get(client, pipe, "/api/stats"))
                    .contains("\"queues\":[{\"from\":\"numbers\",\"to\":\"stuck\",\"feedback\":false,\"queued\":"
                            + CAPACITY + ",\"capacity\":" + CAPACITY + "}]");
        } finally {
            release.countDown();
        }
        assertThat(pipe.waitEnd(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pipe.stats().queues())
                .singleElement()
                .satisfies(q -> assertThat(q.queued()).as("drained by the end").isZero());
        assertThat(pipe.stats().node("stuck").orElseThrow().itemsIn()).isEqualTo(ITEMS);
    }

    @Test
    void shouldReportAnUnboundedChannelWithoutACapacity() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stuck = new CountDownLatch(1);
        Pipeline pipe = new Pipeline(
                Node.<Integer>source("numbers", () -> IntStream.range(0, ITEMS).iterator()),
                Node.<Integer>sink("stuck", x -> {
                    stuck.countDown();
                    awaitQuietly(release);
                }));
        pipe.run(RunOptions.defaults().unboundedQueues(true));
        try {
            assertThat(stuck.await(30, TimeUnit.SECONDS)).isTrue();
            // every item but the one the sink holds, and the end-of-stream mark after them (it takes a slot)
            QueueStats q = awaitQueued(pipe, ITEMS);

            assertThat(q.capacity()).isEqualTo(-1);
            assertThat(q.fill()).isZero();
            assertThat(PrometheusText.format(pipe.stats()))
                    .contains("fastflowj_queue_items{from=\"numbers\",to=\"stuck\"} " + ITEMS + "\n")
                    .doesNotContain("fastflowj_queue_capacity_items{");
        } finally {
            release.countDown();
        }
        assertThat(pipe.waitEnd(30, TimeUnit.SECONDS)).isTrue();
    }

    /** Reads the statistics until the only channel holds {@code items}; each read is a fresh snapshot. */
    private static QueueStats awaitQueued(Pipeline pipe, long items) throws InterruptedException {
        QueueStats q = pipe.stats().queues().get(0);
        while (q.queued() != items) {
            assertThat(q.capacity() < 0 || q.queued() <= q.capacity())
                    .as("never more than the channel holds: %s", q)
                    .isTrue();
            TimeUnit.MILLISECONDS.sleep(5); // polling interval of the reader, not synchronisation
            q = pipe.stats().queues().get(0);
        }
        assertThat(pipe.stats().queues()).hasSize(1);
        return q;
    }

    private static String get(HttpClient client, Pipeline pipe, String path) throws Exception {
        HttpResponse<String> answer = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pipe.uiPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        return answer.body();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
