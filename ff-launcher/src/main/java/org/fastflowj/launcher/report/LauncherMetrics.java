package org.fastflowj.launcher.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.metrics.LivePage;
import org.fastflowj.core.metrics.LoopbackHttpServer;
import org.fastflowj.core.metrics.PrometheusText;
import org.fastflowj.core.metrics.UiRoutes;

/**
 * The launcher's server ({@code --ui PORT}), gathering every group: the live page at {@code /} (ff-core's,
 * the one a one-process run serves), its {@code /api/graph} (the whole program, as the first group to
 * start reported it, each thread with its group) and {@code /api/stats} (every group's latest statistics,
 * each node, link and channel with its {@code "group"}), and {@code /metrics}: the same statistics in the
 * Prometheus text format, each series labelled with the program and its group
 * ({@code fastflowj_node_items_in_total{program="wordcount",group="G1",node="square"}}: {@code program}, not
 * {@code job}, which Prometheus sets itself from its scrape config). A group appears once it has
 * reported ({@link GroupReports}); an ended group keeps its final counts until the launcher exits. Both
 * also say how often the launcher restarted every group from a checkpoint: {@code "launcher":
 * {"restarts": 1}} in {@code /api/stats}, {@code fastflowj_launcher_restarts_total} in {@code /metrics}.
 *
 * <p>Threading: {@link LoopbackHttpServer}'s threads answer, building one answer at a time; {@link #close}
 * from the run's thread.
 */
public final class LauncherMetrics implements AutoCloseable {
    private final LoopbackHttpServer server;

    private LauncherMetrics(LoopbackHttpServer server) {
        this.server = server;
    }

    /**
     * Serves {@code reports} on {@code port} (0: a free one), on the loopback address only (no
     * authentication), as a one-process run's {@code RunOptions.ui} does.
     *
     * @throws UncheckedIOException naming the port when it cannot be bound
     */
    public static LauncherMetrics serve(int port, GroupReports reports, String program) {
        return serve(port, reports, program, () -> 0);
    }

    /**
     * As {@link #serve(int, GroupReports, String)}, with the launcher's count of restarts from a
     * checkpoint.
     */
    public static LauncherMetrics serve(int port, GroupReports reports, String program, IntSupplier restarts) {
        LoopbackHttpServer server;
        try {
            server = LoopbackHttpServer.bind(port);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "--ui " + port + ": cannot serve metrics on port " + port + ": " + e.getMessage(), e);
        }
        UiRoutes.install(
                server,
                reports::graphJson,
                uptimeMs -> withRestarts(statsJson(reports, uptimeMs), restarts.getAsInt()),
                () -> format(reports.latestStats(), program) + restartsFamily(restarts.getAsInt(), program));
        server.start();
        return new LauncherMetrics(server);
    }

    /** Every group's latest statistics, each group's entries stamped with when the group took them. */
    private static String statsJson(GroupReports reports, double uptimeMs) {
        Map<String, RunStats> stats = new LinkedHashMap<>();
        Map<String, Long> measuredAt = new LinkedHashMap<>();
        reports.latestReports().forEach((group, report) -> {
            stats.put(group, report.stats());
            measuredAt.put(group, report.uptimeMs());
        });
        return LivePage.statsJson(stats, measuredAt, uptimeMs);
    }

    /** {@code json}, one JSON object, with the launcher's restarts as one more field at its end. */
    static String withRestarts(String json, int restarts) {
        int end = json.lastIndexOf('}');
        return json.substring(0, end) + ",\"launcher\":{\"restarts\":" + restarts + "}" + json.substring(end);
    }

    static String restartsFamily(int restarts, String program) {
        return "# HELP fastflowj_launcher_restarts_total Times the launcher started every group again from the"
                + " last completed checkpoint after a failure.\n"
                + "# TYPE fastflowj_launcher_restarts_total counter\n"
                + "fastflowj_launcher_restarts_total{program=\"" + escape(program) + "\"} " + restarts + "\n";
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }

    /**
     * The groups' series, each family once (its samples must be together), each sample with the program's
     * and the group's labels first.
     */
    static String format(Map<String, RunStats> byGroup, String program) {
        Map<String, List<String>> families = new LinkedHashMap<>();
        byGroup.forEach((group, stats) -> {
            String label = "program=\"" + escape(program) + "\",group=\"" + escape(group) + "\",";
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
}
