package org.fastflowj.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The live page's server read by a plain HTTP client while a run goes on: the page, its structure, its counters. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LivePageEndpointsTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldServeASelfContainedPageAtTheRoot() throws Exception {
        try (LiveRun run = new LiveRun().start()) {
            HttpResponse<String> page = get(run.url("/"));

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
            assertThat(page.body()).contains("<svg id=\"graph\"", "fetch(\"api/graph\"", "fetch(\"api/stats\"");
            assertThat(page.body())
                    .as("nothing loaded from elsewhere: the page works offline")
                    .doesNotContain("<script src", "<link ", "src=\"http", "href=\"http", "url(http", "@import");
            assertThat(get(run.url("/index.html")).statusCode()).isEqualTo(404);
            assertThat(get(run.url("/api/stats/more")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void shouldDescribeTheGraphWithColumnsByPipelineDepthAndTheFarmAsACluster() throws Exception {
        try (LiveRun run = new LiveRun().start()) {
            HttpResponse<String> graph = get(run.url("/api/graph"));

            assertThat(graph.statusCode()).isEqualTo(200);
            assertThat(graph.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
            String json = graph.body();
            assertThat(vertex(json, LiveRun.SOURCE)).contains("\"column\":0", "\"group\":null", "\"clusters\":[]");
            assertThat(vertex(json, LiveRun.SINK)).contains("\"column\":3");
            assertThat(json).contains("{\"name\":\"" + LiveRun.FARM + "\",\"kind\":\"farm\"}");
            assertThat(count(json, "\"clusters\":\\[\"" + LiveRun.FARM + "\"]"))
                    .as("the emitter and both workers are in the farm's cluster")
                    .isEqualTo(3);
            assertThat(count(json, "\"column\":2,\"group\":null,\"clusters\":\\[\"" + LiveRun.FARM + "\"]"))
                    .as("both workers one column after the emitter")
                    .isEqualTo(2);
            assertThat(count(json, "\"to\":\"" + LiveRun.SINK + "\",\"kind\":\"forward\""))
                    .as("each worker feeds the sink")
                    .isEqualTo(2);
        }
    }

    @Test
    void shouldServeCountersThatGrowWhileTheRunGoesOn() throws Exception {
        try (LiveRun run = new LiveRun().start()) {
            long first = awaitItemsIn(run, LiveRun.SINK, 1);
            long second = awaitItemsIn(run, LiveRun.SINK, first + 1);
            HttpResponse<String> stats = get(run.url("/api/stats"));

            assertThat(second).isGreaterThan(first);
            assertThat(stats.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
            assertThat(stats.body())
                    .startsWith("{\"atMillis\":")
                    .contains("\"name\":\"" + LiveRun.SOURCE + "\",\"itemsIn\":0,\"itemsOut\":")
                    .contains("\"blockedInputNanos\":", "\"blockedOutputNanos\":")
                    .contains(
                            "\"links\":[]",
                            "{\"from\":\"" + LiveRun.SOURCE
                                    + "\",\"to\":\"ff-squares-emitter\",\"feedback\":false,\"queued\":")
                    .endsWith("]}");
            assertThat(atMillis(stats.body())).isPositive();
        }
    }

    @Test
    void shouldCountAWaitForInputWhileItLasts() throws Exception {
        Held held = new Held();
        Pipeline pipe =
                new Pipeline(held.named("held"), Node.<Integer>sink(x -> {}).named("waiter"));
        pipe.run(RunOptions.defaults().ui(0));
        try {
            String url = "http://127.0.0.1:" + pipe.uiPort() + "/api/stats";
            Pattern blocked = Pattern.compile("\\{\"name\":\"waiter\",\"itemsIn\":0,[^}]*\"blockedInputNanos\":(\\d+)");
            long seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (seen < TimeUnit.MILLISECONDS.toNanos(300) && System.nanoTime() < deadline) {
                Thread.sleep(50);
                Matcher m = blocked.matcher(get(url).body());
                assertThat(m.find())
                        .as("the waiter's row, before any item came")
                        .isTrue();
                seen = Long.parseLong(m.group(1));
            }
            assertThat(seen)
                    .as("the wait under way, counted before it ends")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        } finally {
            held.release.countDown();
            assertThat(pipe.waitEnd(20, TimeUnit.SECONDS)).as("the run ended").isTrue();
        }
    }

    /** A source that sends nothing until released, then ends: what follows it waits for input meanwhile. */
    private static final class Held extends Node<Void, Integer> {
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            release.await();
            return eos();
        }
    }

    /** Reads /api/stats until the node took at least {@code atLeast} items; returns the count seen. */
    private long awaitItemsIn(LiveRun run, String node, long atLeast) throws Exception {
        Pattern itemsIn = Pattern.compile("\"name\":\"" + Pattern.quote(node) + "\",\"itemsIn\":(\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Matcher m = itemsIn.matcher(get(run.url("/api/stats")).body());
            assertThat(m.find()).as("%s in /api/stats", node).isTrue();
            long seen = Long.parseLong(m.group(1));
            if (seen >= atLeast || System.nanoTime() > deadline) {
                assertThat(seen).as("items into %s", node).isGreaterThanOrEqualTo(atLeast);
                return seen;
            }
            Thread.sleep(20);
        }
    }

    private static String vertex(String json, String name) {
        Matcher m = Pattern.compile("\\{\"name\":\"" + Pattern.quote(name) + "\",\"column\"[^}]*}")
                .matcher(json);
        assertThat(m.find()).as("vertex %s in %s", name, json).isTrue();
        return m.group();
    }

    private static int count(String text, String regex) {
        return (int) Pattern.compile(regex).matcher(text).results().count();
    }

    private static double atMillis(String json) {
        Matcher m = Pattern.compile("\"atMillis\":([0-9.E]+)").matcher(json);
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
