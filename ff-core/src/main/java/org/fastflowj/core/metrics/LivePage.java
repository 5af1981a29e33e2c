package org.fastflowj.core.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.Graph;

/**
 * The live page and the answers it reads, for a server other than a run's own ({@code RunOptions.ui}):
 * ff-dist's groups report their graph with it, and the launcher's {@code --ui} serves the page with
 * every group's statistics gathered into one answer.
 */
public final class LivePage {
    private static final String PAGE_RESOURCE = "live.html";

    private LivePage() {}

    /** The page itself: one self-contained HTML file that reads {@code api/graph} and {@code api/stats}. */
    public static byte[] html() {
        try (InputStream in = LivePage.class.getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the live page " + PAGE_RESOURCE + " is missing from ff-core's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the live page " + PAGE_RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** {@code graph}'s structure as the page's {@code api/graph} answer: one line of JSON. */
    public static String graphJson(Graph graph) {
        return GraphJson.format(graph);
    }

    /** The {@code api/graph} answer of a run whose structure is not known: the page shows the counters only. */
    public static String emptyGraphJson() {
        return "{\"vertices\":[],\"clusters\":[],\"edges\":[]}";
    }

    /**
     * Every group's statistics as one {@code api/stats} answer, made {@code atMillis} after the server
     * started, each node, link and channel with its {@code "group"} and, when {@code measuredAtMillis}
     * has its group, the time the group took them on its own clock: the page measures each entry's rates
     * between two of its own times, so counters a group reports once a second give true rates however
     * often the page asks.
     */
    public static String statsJson(Map<String, RunStats> byGroup, Map<String, Long> measuredAtMillis, double atMillis) {
        return StatsJson.format(byGroup, measuredAtMillis, atMillis);
    }
}
