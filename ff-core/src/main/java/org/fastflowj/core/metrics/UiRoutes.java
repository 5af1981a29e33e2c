package org.fastflowj.core.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
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
 * <p>Threading: the server's one dispatcher thread runs every handler.
 */
final class UiRoutes {
    private static final String JSON = "application/json; charset=utf-8";

    private UiRoutes() {}

    /** Adds the routes to {@code server}; {@code graph} may be null (then the page shows the counters only). */
    static void install(HttpServer server, Graph graph, Supplier<RunStats> stats) {
        long startNanos = System.nanoTime();
        byte[] page = LivePage.html();
        byte[] structure =
                (graph == null ? LivePage.emptyGraphJson() : GraphJson.format(graph)).getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/")) {
                answer(exchange, "text/html; charset=utf-8", () -> page);
            } else {
                notFound(exchange);
            }
        });
        server.createContext("/api/graph", exactly("/api/graph", JSON, () -> structure));
        server.createContext("/api/stats", exactly("/api/stats", JSON, () -> StatsJson.format(
                        stats.get(), (System.nanoTime() - startNanos) / 1e6)
                .getBytes(StandardCharsets.UTF_8)));
        server.createContext(
                "/metrics", exactly("/metrics", PrometheusText.CONTENT_TYPE, () -> PrometheusText.format(stats.get())
                        .getBytes(StandardCharsets.UTF_8)));
    }

    /** A context matches every path it prefixes: answer the exact one, 404 the rest. */
    private static HttpHandler exactly(String path, String contentType, Supplier<byte[]> body) {
        return exchange -> {
            if (exchange.getRequestURI().getPath().equals(path)) {
                answer(exchange, contentType, body);
            } else {
                notFound(exchange);
            }
        };
    }

    private static void notFound(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.sendResponseHeaders(404, -1);
        }
    }

    private static void answer(HttpExchange exchange, String contentType, Supplier<byte[]> content) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = content.get();
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
