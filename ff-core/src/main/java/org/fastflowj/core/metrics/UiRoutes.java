package org.fastflowj.core.metrics;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.Graph;

/**
 * What a run's HTTP server answers: the live page at {@code /} (one self-contained HTML file, no external
 * script, so it works offline), its data at {@code /api/graph} (the structure, read once by the page) and
 * {@code /api/stats} (the counters, read every second), and the Prometheus text at {@code /metrics}.
 * Every answer is built from a {@link RunStats} snapshot taken when asked: the run pays nothing per item.
 *
 * <p>Threading: the server's threads call the suppliers, one at a time ({@link LoopbackHttpServer}).
 */
final class UiRoutes {
    private static final String JSON = "application/json; charset=utf-8";

    private UiRoutes() {}

    /** Adds the routes to {@code server}; {@code graph} may be null (then the page shows the counters only). */
    static void install(LoopbackHttpServer server, Graph graph, Supplier<RunStats> stats) {
        long startNanos = System.nanoTime();
        byte[] page = LivePage.html();
        byte[] structure =
                (graph == null ? LivePage.emptyGraphJson() : GraphJson.format(graph)).getBytes(StandardCharsets.UTF_8);
        server.route("/", "text/html; charset=utf-8", () -> page)
                .route("/api/graph", JSON, () -> structure)
                .route("/api/stats", JSON, () -> StatsJson.format(stats.get(), (System.nanoTime() - startNanos) / 1e6)
                        .getBytes(StandardCharsets.UTF_8))
                .route("/metrics", PrometheusText.CONTENT_TYPE, () -> PrometheusText.format(stats.get())
                        .getBytes(StandardCharsets.UTF_8));
    }
}
