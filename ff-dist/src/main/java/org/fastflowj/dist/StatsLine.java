package org.fastflowj.dist;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;

/**
 * A group's statistics in one line of text, the channel between a group and the launcher that started it
 * with {@link DFF#REPORT_OPTION}: the group prints a {@link #PROGRESS} line on stderr every second and
 * one {@link #FINAL} line when its run ends; the launcher hides them and shows the rate, the
 * {@code --stats} tables and its {@code /metrics} from them. A line works through any pipe the group's
 * output already takes (a local process, ssh, srun), where a port would need a tunnel.
 *
 * <pre>
 *   DFF_PROGRESS: &lt;ms since the group started&gt; n &lt;node&gt; &lt;in&gt; &lt;out&gt; &lt;svc ns&gt; &lt;wait in ns&gt; &lt;wait out ns&gt; &lt;cpu&gt;
 *                 ... c &lt;counter of the node before&gt; &lt;count&gt; ...
 *                 ... l &lt;link&gt; &lt;messages&gt; &lt;bytes&gt; &lt;batches&gt; &lt;credit wait ns&gt; ...
 *                 ... q &lt;from&gt; &lt;to&gt; &lt;feedback 0|1&gt; &lt;queued&gt; &lt;capacity, -1 unbounded&gt; ...
 *                 ... k checkpoints &lt;completed&gt; &lt;last id&gt; &lt;last duration ns&gt; &lt;last size bytes&gt; &lt;last alignment ns&gt; &lt;restarts&gt;
 *   DFF_GRAPH: &lt;the whole program's graph, as the live page's api/graph JSON&gt;
 * </pre>
 *
 * Names are URL-encoded, so that no name can contain a space. The {@link #GRAPH} line comes once, when
 * the group's run starts: the launcher's live page draws the program from it.
 */
public final class StatsLine {
    /** A snapshot while the group runs. */
    public static final String PROGRESS = "DFF_PROGRESS:";
    /** The group's final statistics, once its run ended (well or not). */
    public static final String FINAL = "DFF_STATS:";
    /** The program's graph, once, as the live page's {@code api/graph} answer. */
    public static final String GRAPH = "DFF_GRAPH:";

    private StatsLine() {}

    /** A report in this format, parsed: the group's uptime and its statistics. */
    public record Report(boolean last, long uptimeMs, RunStats stats) {}

    /** Whether {@code line} is a report ({@link #PROGRESS}, {@link #FINAL} or {@link #GRAPH}). */
    public static boolean isReport(String line) {
        return line.startsWith(PROGRESS) || line.startsWith(FINAL) || line.startsWith(GRAPH);
    }

    /** The {@link #GRAPH} line of {@code graphJson} (one line of JSON). */
    public static String graphLine(String graphJson) {
        return GRAPH + " " + graphJson;
    }

    /** The JSON of a {@link #GRAPH} line, or null when {@code line} is not one. */
    public static String graphOf(String line) {
        return line.startsWith(GRAPH) ? line.substring(GRAPH.length()).strip() : null;
    }

    public static String format(boolean last, long uptimeMs, RunStats stats) {
        StringBuilder line = new StringBuilder(64 + 48 * stats.nodes().size());
        line.append(last ? FINAL : PROGRESS).append(' ').append(uptimeMs);
        for (NodeStats n : stats.nodes()) {
            line.append(" n ").append(URLEncoder.encode(n.name(), StandardCharsets.UTF_8));
            append(
                    line,
                    n.itemsIn(),
                    n.itemsOut(),
                    n.svcNanos(),
                    n.blockedInputNanos(),
                    n.blockedOutputNanos(),
                    n.cpu());
            for (Map.Entry<String, Long> c : n.counters().entrySet()) {
                line.append(" c ").append(URLEncoder.encode(c.getKey(), StandardCharsets.UTF_8));
                append(line, c.getValue());
            }
        }
        for (LinkStats l : stats.links()) {
            line.append(" l ").append(URLEncoder.encode(l.link(), StandardCharsets.UTF_8));
            append(line, l.messages(), l.bytes(), l.batches(), l.creditWaitNanos());
        }
        for (QueueStats q : stats.queues()) {
            line.append(" q ").append(URLEncoder.encode(q.from(), StandardCharsets.UTF_8));
            line.append(' ').append(URLEncoder.encode(q.to(), StandardCharsets.UTF_8));
            append(line, q.feedback() ? 1 : 0, q.queued(), q.capacity());
        }
        stats.checkpoints().ifPresent(k -> {
            line.append(" k checkpoints");
            append(
                    line,
                    k.completed(),
                    k.lastId(),
                    k.lastDurationNanos(),
                    k.lastSizeBytes(),
                    k.lastAlignmentNanos(),
                    k.restarts());
        });
        return line.toString();
    }

    /**
     * Reads a report line.
     *
     * @throws IllegalArgumentException naming the line when it is not one
     */
    public static Report parse(String line) {
        boolean last = line.startsWith(FINAL);
        if (!last && !line.startsWith(PROGRESS)) {
            throw new IllegalArgumentException("not a statistics line: " + line);
        }
        String[] t = line.substring((last ? FINAL : PROGRESS).length()).strip().split(" ");
        try {
            List<NodeStats> nodes = new ArrayList<>();
            List<LinkStats> links = new ArrayList<>();
            List<QueueStats> queues = new ArrayList<>();
            Optional<CheckpointStats> checkpoints = Optional.empty();
            int i = 1;
            while (i < t.length) {
                String kind = t[i];
                String name = URLDecoder.decode(t[i + 1], StandardCharsets.UTF_8);
                if (kind.equals("n")) {
                    nodes.add(new NodeStats(
                            name,
                            Long.parseLong(t[i + 2]),
                            Long.parseLong(t[i + 3]),
                            Long.parseLong(t[i + 4]),
                            Long.parseLong(t[i + 5]),
                            Long.parseLong(t[i + 6]),
                            Integer.parseInt(t[i + 7])));
                    i += 8;
                } else if (kind.equals("c")) {
                    NodeStats n = nodes.remove(nodes.size() - 1); // a counter follows its node
                    Map<String, Long> counters = new LinkedHashMap<>(n.counters());
                    counters.put(name, Long.parseLong(t[i + 2]));
                    nodes.add(new NodeStats(
                            n.name(),
                            n.itemsIn(),
                            n.itemsOut(),
                            n.svcNanos(),
                            n.blockedInputNanos(),
                            n.blockedOutputNanos(),
                            n.cpu(),
                            counters));
                    i += 3;
                } else if (kind.equals("l")) {
                    links.add(new LinkStats(
                            name,
                            Long.parseLong(t[i + 2]),
                            Long.parseLong(t[i + 3]),
                            Long.parseLong(t[i + 4]),
                            Long.parseLong(t[i + 5])));
                    i += 6;
                } else if (kind.equals("q")) {
                    queues.add(new QueueStats(
                            name,
                            URLDecoder.decode(t[i + 2], StandardCharsets.UTF_8),
                            Long.parseLong(t[i + 3]) != 0,
                            Long.parseLong(t[i + 4]),
                            Long.parseLong(t[i + 5])));
                    i += 6;
                } else if (kind.equals("k")) {
                    checkpoints = Optional.of(new CheckpointStats(
                            Long.parseLong(t[i + 2]),
                            Long.parseLong(t[i + 3]),
                            Long.parseLong(t[i + 4]),
                            Long.parseLong(t[i + 5]),
                            Long.parseLong(t[i + 6]),
                            Integer.parseInt(t[i + 7])));
                    i += 8;
                } else {
                    throw new IllegalArgumentException("unknown entry '" + kind + "'");
                }
            }
            return new Report(last, Long.parseLong(t[0]), new RunStats(nodes, links, queues, checkpoints));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed statistics line (" + e.getMessage() + "): " + line, e);
        }
    }

    private static void append(StringBuilder line, long... values) {
        for (long v : values) {
            line.append(' ').append(v);
        }
    }
}
