package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the launcher shows of the groups' statistics: the ended lines, {@code --stats} and {@code --ui}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GroupStatsLaunchTest {
    private static final Pattern METRICS_URL = Pattern.compile("metrics of every group at (http://\\S+/metrics)");

    @TempDir
    Path dir;

    @Test
    void shouldPrintEveryGroupsNodeTableWithStatsAndHideTheReportLines() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path logs = dir.resolve("logs");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--stats", "--log-dir", logs.toString()),
                Launcher.sumApp("1000")));
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.out())
                    .contains("[A] statistics of group A:", "[B] statistics of group B:", "[C] statistics of group C:")
                    .containsPattern("\\[B\\] node +items in +items out +svc ms +wait in ms +wait out ms")
                    // B's square took every item and gave every item on
                    .containsPattern("\\[B\\] square +1000 +1000 ")
                    .containsPattern("\\[B\\] link +messages +bytes");
            // each group's time and rate as it ended, and none of the report lines themselves
            for (String g : List.of("A", "B", "C")) {
                assertThat(result.err())
                        .containsPattern("ff-launcher: group " + g + ": ended 0, [0-9.]+ s, [0-9 ]+ items/s");
            }
            assertThat(result.out() + result.err()).doesNotContain("DFF_PROGRESS", "DFF_STATS");
            assertThat(Files.readString(logs.resolve("B.log")))
                    .contains("B up")
                    .doesNotContain("DFF_PROGRESS", "DFF_STATS");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldPrintNoTablesWithoutStats() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(
                Launcher.args(List.of("run", "-c", config.toString(), "--timeout", "60s"), Launcher.sumApp("100")));
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.out()).doesNotContain("statistics of group", "items in");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldServeEveryGroupsSeriesOnTheLaunchersMetricsDuringTheRun() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = slowRunWithPage(config);
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            URI metrics = URI.create(awaitMetricsUrl(err, run));
            String body = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!hasEveryGroup(body) && System.nanoTime() < deadline && !run.isDone()) {
                TimeUnit.MILLISECONDS.sleep(200);
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(metrics)
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Type"))
                        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
                body = response.body();
            }
            assertThat(body)
                    .as("/metrics\n%s\nlauncher stderr:\n%s", body, err)
                    .contains("fastflowj_node_items_in_total{program=\"sums\",group=\"B\",node=\"square\"} ")
                    .contains("fastflowj_node_items_out_total{program=\"sums\",group=\"A\",node=")
                    .contains("fastflowj_link_messages_total{program=\"sums\",group=\"C\",link=");
            // one HELP and TYPE per family, however many groups
            assertThat(body.lines().filter(l -> l.equals("# TYPE fastflowj_node_items_in_total counter")))
                    .hasSize(1);
        } finally {
            Launcher.killAll(Launcher.pidsIn(err.toString()));
            run.get(60, TimeUnit.SECONDS);
            Launcher.killAll(Launcher.pidsIn(err.toString()));
        }
    }

    @Test
    void shouldServeTheLivePageWithEveryGroupsGraphRatesFillAndLinksDuringTheRun() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = slowRunWithPage(config);
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            String base = awaitMetricsUrl(err, run).replace("/metrics", "");
            assertThat(err.toString()).contains("ff-launcher: live page of every group at " + base + "/\n");
            String stats = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // each group reports once a second: wait for the reports that show each of these
            List<Pattern> expected = List.of(
                    Pattern.compile("\"name\":\"square\",\"group\":\"B\",\"atMillis\":\\d+,\"itemsIn\":[1-9]"),
                    // every link with its group and when the group counted, each side reporting its own
                    Pattern.compile("\\{\"link\":\"[^\"]+\",\"group\":\"A\",\"atMillis\":\\d+,\"messages\":[1-9]"),
                    Pattern.compile("\\{\"link\":\"[^\"]+\",\"group\":\"C\",\"atMillis\":\\d+,\"messages\":[1-9]"),
                    Pattern.compile("\"batches\":\\d+,\"creditWaitNanos\":\\d+"),
                    // the channel into B's square, measured in B
                    Pattern.compile("\\{\"from\":\"[^\"]+\",\"to\":\"square\",\"group\":\"B\","
                            + "\"atMillis\":\\d+,\"feedback\":false,\"queued\":\\d+,\"capacity\":[1-9]"));
            while (!allFound(expected, stats) && System.nanoTime() < deadline && !run.isDone()) {
                TimeUnit.MILLISECONDS.sleep(200);
                stats = get(http, base + "/api/stats", "application/json; charset=utf-8");
            }
            String graph = get(http, base + "/api/graph", "application/json; charset=utf-8");
            String page = get(http, base + "/", "text/html; charset=utf-8");

            assertThat(stats)
                    .as("/api/stats\n%s\nlauncher stderr:\n%s", stats, err)
                    .startsWith("{\"atMillis\":");
            for (Pattern p : expected) {
                assertThat(stats)
                        .as("/api/stats\n%s\nlauncher stderr:\n%s", stats, err)
                        .containsPattern(p);
            }
            assertThat(graph)
                    .as("the whole program, as a group reported it")
                    .contains("\"name\":\"square\",\"column\":1,\"group\":\"B\"")
                    .contains("\"group\":\"A\"", "\"group\":\"C\"")
                    .contains("\"to\":\"square\",\"kind\":\"forward\"");
            assertThat(page).contains("<svg id=\"graph\"", "fetch(\"api/graph\"", "fetch(\"api/stats\"");
            assertThat(http.send(
                                    HttpRequest.newBuilder(URI.create(base + "/api/stats/more"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(404);
        } finally {
            Launcher.killAll(Launcher.pidsIn(err.toString()));
            run.get(60, TimeUnit.SECONDS);
            Launcher.killAll(Launcher.pidsIn(err.toString()));
        }
    }

    private static boolean allFound(List<Pattern> patterns, String text) {
        return patterns.stream().allMatch(p -> p.matcher(text).find());
    }

    private static String get(HttpClient http, String url, String contentType) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(contentType);
        return response.body();
    }

    @Test
    void shouldKeepServingTheFinalCountsForTheLingerAfterAShortRunEnded() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--ui", "0", "--ui-linger", "8s"),
                Launcher.sumApp("1000"));
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            String metrics = awaitMetricsUrl(err, run);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!err.toString().contains("(--ui-linger)") && System.nanoTime() < deadline && !run.isDone()) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            assertThat(err.toString())
                    .as(err.toString())
                    .contains("ff-launcher: every group exited 0")
                    .contains("ff-launcher: the live page keeps the final counts at " + metrics.replace("/metrics", "/")
                            + " for 8 s (--ui-linger)");
            assertThat(run).as("the launcher lingers, the run has ended").isNotDone();
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(metrics))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            // the program label defaults to the config file's name (app.json)
            assertThat(body)
                    .contains("fastflowj_node_items_in_total{program=\"app\",group=\"B\",node=\"square\"} 1000");
            assertThat(run.get(40, TimeUnit.SECONDS)).as(err.toString()).isZero();
        } finally {
            Launcher.killAll(Launcher.pidsIn(err.toString()));
        }
    }

    @Test
    void shouldRefuseAPortOutOfRange() {
        Launcher.Result result =
                Launcher.run(Launcher.args(List.of("run", "-c", "app.json", "--ui", "70000"), Launcher.sumApp("1")));

        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err()).contains("--ui must be a port number from 0 to 65535 (0: a free port), got 70000");
    }

    private static boolean hasEveryGroup(String body) {
        return List.of("A", "B", "C").stream().allMatch(g -> body.lines()
                .anyMatch(l -> l.startsWith("fastflowj_node_items_in_total{") && l.contains(",group=\"" + g + "\",")));
    }

    private static String awaitMetricsUrl(StringWriter err, CompletableFuture<Integer> run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !run.isDone()) {
            Matcher m = METRICS_URL.matcher(err.toString());
            if (m.find()) {
                return m.group(1);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new AssertionError("the launcher printed no metrics address:\n" + err);
    }

    /** A run of program "sums" with its page on a free port; B works 1 ms per item, so it lasts to be read. */
    private static String[] slowRunWithPage(Path config) {
        return Launcher.args(
                List.of(
                        "run",
                        "-c",
                        config.toString(),
                        "--timeout",
                        "90s",
                        "--grace",
                        "1s",
                        "--ui",
                        "0",
                        "--program",
                        "sums"),
                Launcher.sumApp("100000", "-1", "1000"));
    }
}
