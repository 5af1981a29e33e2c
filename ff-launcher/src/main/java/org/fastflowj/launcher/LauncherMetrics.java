package org.fastflowj.launcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.metrics.LivePage;
import org.fastflowj.core.metrics.PrometheusText;

/**
 * The launcher's server ({@code --ui PORT}), gathering every group: the live page at {@code /} (ff-core's,
 * the one a one-process run serves), its {@code /api/graph} (the whole program, as the first group to
 * start reported it, each thread with its group) and {@code /api/stats} (every group's latest statistics,
 * each node, link and channel with its {@code "group"}), and {@code /metrics}: the same statistics in the
 * Prometheus text format, each series labelled with its group
 * ({@code fastflowj_node_items_in_total{group="G1",node="square"}}). A group appears once it has
 * reported ({@link GroupReports}); an ended group keeps its final counts until the launcher exits.
 *
 * <p>Threading: the JDK server's one dispatcher thread answers; {@link #close} from the run's thread.
 */
final class LauncherMetrics implements AutoCloseable {
    private static final String JSON = "application/json; charset=utf-8";

    private final HttpServer server;

    private LauncherMetrics(HttpServer server) {
        this.server = server;
    }

    /**
     * Serves {@code reports} on {@code port} (0: a free one), on the loopback address only (no
     * authentication), as a one-process run's {@code RunOptions.ui} does.
     *
     * @throws UncheckedIOException naming the port when it cannot be bound
     */
    static LauncherMetrics serve(int port, GroupReports reports) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "--ui " + port + ": cannot serve metrics on port " + port + ": " + e.getMessage(), e);
        }
        long startNanos = System.nanoTime();
        byte[] page = LivePage.html();
        server.createContext("/", exchange -> answer(exchange, "/", "text/html; charset=utf-8", () -> page));
        server.createContext(
                "/api/graph",
                exchange -> answer(exchange, "/api/graph", JSON, () -> {
                    String graph = reports.graphJson();
                    return (graph == null ? LivePage.emptyGraphJson() : graph).getBytes(StandardCharsets.UTF_8);
                }));
        server.createContext(
                "/api/stats", exchange -> answer(exchange, "/api/stats", JSON, () -> statsJson(reports, startNanos)));
        server.createContext(
                "/metrics",
                exchange ->
                        answer(exchange, "/metrics", PrometheusText.CONTENT_TYPE, () -> format(reports.latestStats())
                                .getBytes(StandardCharsets.UTF_8)));
        server.start();
        return new LauncherMetrics(server);
    }

    /** Every group's latest statistics, each group's entries stamped with when the group took them. */
    private static byte[] statsJson(GroupReports reports, long startNanos) {
        Map<String, RunStats> stats = new LinkedHashMap<>();
        Map<String, Long> measuredAt = new LinkedHashMap<>();
        reports.latestReports().forEach((group, report) -> {
            stats.put(group, report.stats());
            measuredAt.put(group, report.uptimeMs());
        });
        return LivePage.statsJson(stats, measuredAt, (System.nanoTime() - startNanos) / 1e6)
                .getBytes(StandardCharsets.UTF_8);
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * The groups' series, each family once (its samples must be together), each sample with the group's
     * label first.
     */
    static String format(Map<String, RunStats> byGroup) {
        Map<String, List<String>> families = new LinkedHashMap<>();
        byGroup.forEach((group, stats) -> {
            String label = "group=\"" + escape(group) + "\",";
            List<String> family = null;
            for (String line : PrometheusText.format(stats).split("\n")) {
                if (line.startsWith("# HELP ")) {
                    String name = line.substring("# HELP ".length(), line.indexOf(' ', "# HELP ".length()));
                    family = families.computeIfAbsent(name, n -> new ArrayList<>());
                    if (family.isEmpty()) {
                        family.add(line);
                    }
                } else if (line.startsWith("# TYPE ")) {
                    if (family != null && family.size() == 1) {
                        family.add(line);
                    }
                } else if (!line.isEmpty() && family != null) {
                    int brace = line.indexOf('{');
                    family.add(line.substring(0, brace + 1) + label + line.substring(brace + 1));
                }
            }
        });
        StringBuilder out = new StringBuilder(4096);
        families.values().forEach(lines -> lines.forEach(l -> out.append(l).append('\n')));
        return out.toString();
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** A context matches every path it prefixes: answers the exact {@code path}, 404 to the rest. */
    private static void answer(HttpExchange exchange, String path, String contentType, Supplier<byte[]> content)
            throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(path)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
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
                try (OutputStream response = exchange.getResponseBody()) {
                    response.write(body);
                }
            }
        }
    }
}
