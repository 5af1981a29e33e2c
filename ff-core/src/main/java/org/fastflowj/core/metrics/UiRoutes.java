package org.fastflowj.core.metrics;

import java.nio.charset.StandardCharsets;
import java.util.function.DoubleFunction;
import java.util.function.Supplier;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.Graph;

/**
 * What a metrics server answers, a run's or the launcher's: the live page at {@code /} (one self-contained
 * HTML file, no external script, so it works offline), its data at {@code /api/graph} (the structure, read
 * once by the page) and {@code /api/stats} (the counters, read every second), and the Prometheus text at
 * {@code /metrics}. Every answer is built when asked: a run pays nothing per item.
 *
 * <p>Threading: the server's threads call the suppliers, one at a time ({@link LoopbackHttpServer}).
 */
public final class UiRoutes {
    private static final String JSON = "application/json; charset=utf-8";

    private UiRoutes() {}

    /**
     * Adds a run's routes to {@code server}, each answer built from a {@link RunStats} snapshot taken when
     * asked; {@code graph} may be null (then the page shows the counters only).
     */
    static void install(LoopbackHttpServer server, Graph graph, Supplier<RunStats> stats) {
        String structure = graph == null ? null : GraphJson.format(graph);
        install(
                server,
                () -> structure,
                uptimeMs -> StatsJson.format(stats.get(), uptimeMs),
                () -> PrometheusText.format(stats.get()));
    }

    /**
     * Adds the routes to {@code server}: {@code graphJson} answers {@code /api/graph} (null: no structure,
     * the page shows the counters only), {@code statsJson} {@code /api/stats} given the milliseconds since
     * this call, {@code prometheus} {@code /metrics}.
     */
    public static void install(
            LoopbackHttpServer server,
            Supplier<String> graphJson,
            DoubleFunction<String> statsJson,
            Supplier<String> prometheus) {
        long startNanos = System.nanoTime();
        byte[] page = LivePage.html();
        server.route("/", "text/html; charset=utf-8", () -> page)
                .route("/api/graph", JSON, () -> {
                    String graph = graphJson.get();
                    return utf8(graph == null ? LivePage.emptyGraphJson() : graph);
                })
                .route("/api/stats", JSON, () -> utf8(statsJson.apply((System.nanoTime() - startNanos) / 1e6)))
                .route("/metrics", PrometheusText.CONTENT_TYPE, () -> utf8(prometheus.get()));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
