package org.fastflowj.core.metrics;

import java.util.Collections;
import java.util.Map;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;

/**
 * A {@link RunStats} snapshot as the live page's {@code /api/stats} answer: the counters as they are,
 * stamped with the time they were read, so that the page computes rates between two answers however late
 * each one arrived.
 *
 * <pre>
 * {"atMillis": 1234.5,
 *  "nodes": [{"name": "parser", "itemsIn": 10, "itemsOut": 10, "svcNanos": 5,
 *             "blockedInputNanos": 7, "blockedOutputNanos": 0, "counters": {"skipped": 2}}, ...],
 *  "links": [{"link": "G1 -> G2", "messages": 3, "bytes": 96, "batches": 1, "creditWaitNanos": 0}, ...],
 *  "queues": [{"from": "source", "to": "parser", "feedback": false, "queued": 512, "capacity": 512}, ...],
 *  "checkpoints": {"completed": 12, "lastId": 12, "lastDurationNanos": 3100000, "lastSizeBytes": 40960,
 *                  "lastAlignmentNanos": 200000, "restarts": 1}}
 * </pre>
 *
 * <p>{@code "checkpoints"} is there only for a run that takes checkpoints.
 *
 * <p>The launcher's answer, which gathers every group's, also names each entry's {@code "group"}.
 */
final class StatsJson {
    private StatsJson() {}

    /** {@code stats} read {@code atMillis} after the server started. */
    static String format(RunStats stats, double atMillis) {
        return format(Collections.singletonMap(null, stats), Map.of(), atMillis);
    }

    /**
     * Every group's {@code stats}, each entry with a {@code "group"} field naming the group it came from
     * (none for the null key: a one-process run) and, when {@code measuredAtMillis} has the group, an
     * {@code "atMillis"} of its own: when the group took those counters, on the group's clock, from
     * which the page measures that entry's rates. The answer was made {@code atMillis} after the server
     * started.
     */
    static String format(Map<String, RunStats> byGroup, Map<String, Long> measuredAtMillis, double atMillis) {
        StringBuilder out = new StringBuilder(256 + 200 * byGroup.size());
        out.append("{\"atMillis\":").append(atMillis).append(",\"nodes\":[");
        boolean first = true;
        for (Map.Entry<String, RunStats> g : byGroup.entrySet()) {
            for (NodeStats n : g.getValue().nodes()) {
                out.append(first ? "{" : ",{");
                first = false;
                JsonText.key(out, "name");
                JsonText.string(out, n.name());
                group(out, g.getKey(), measuredAtMillis);
                out.append(",\"itemsIn\":").append(n.itemsIn());
                out.append(",\"itemsOut\":").append(n.itemsOut());
                out.append(",\"svcNanos\":").append(n.svcNanos());
                out.append(",\"blockedInputNanos\":").append(n.blockedInputNanos());
                out.append(",\"blockedOutputNanos\":").append(n.blockedOutputNanos());
                out.append(",\"counters\":{");
                boolean firstCounter = true;
                for (Map.Entry<String, Long> c : n.counters().entrySet()) {
                    if (!firstCounter) {
                        out.append(',');
                    }
                    firstCounter = false;
                    JsonText.key(out, c.getKey());
                    out.append(c.getValue().longValue());
                }
                out.append("}}");
            }
        }
        out.append("],\"links\":[");
        first = true;
        for (Map.Entry<String, RunStats> g : byGroup.entrySet()) {
            for (LinkStats l : g.getValue().links()) {
                out.append(first ? "{" : ",{");
                first = false;
                JsonText.key(out, "link");
                JsonText.string(out, l.link());
                group(out, g.getKey(), measuredAtMillis);
                out.append(",\"messages\":").append(l.messages());
                out.append(",\"bytes\":").append(l.bytes());
                out.append(",\"batches\":").append(l.batches());
                out.append(",\"creditWaitNanos\":").append(l.creditWaitNanos());
                out.append('}');
            }
        }
        out.append("],\"queues\":[");
        first = true;
        for (Map.Entry<String, RunStats> g : byGroup.entrySet()) {
            for (QueueStats q : g.getValue().queues()) {
                out.append(first ? "{" : ",{");
                first = false;
                JsonText.key(out, "from");
                JsonText.string(out, q.from());
                out.append(",\"to\":");
                JsonText.string(out, q.to());
                group(out, g.getKey(), measuredAtMillis);
                out.append(",\"feedback\":").append(q.feedback());
                out.append(",\"queued\":").append(q.queued());
                out.append(",\"capacity\":").append(q.capacity());
                out.append('}');
            }
        }
        out.append(']');
        for (Map.Entry<String, RunStats> g : byGroup.entrySet()) {
            // Every group takes part in the same checkpoints (the same numbers): the first group speaks for them.
            if (g.getValue().checkpoints().isPresent()) {
                CheckpointStats c = g.getValue().checkpoints().get();
                out.append(",\"checkpoints\":{\"completed\":").append(c.completed());
                out.append(",\"lastId\":").append(c.lastId());
                out.append(",\"lastDurationNanos\":").append(c.lastDurationNanos());
                out.append(",\"lastSizeBytes\":").append(c.lastSizeBytes());
                out.append(",\"lastAlignmentNanos\":").append(c.lastAlignmentNanos());
                out.append(",\"restarts\":").append(c.restarts());
                out.append('}');
                break;
            }
        }
        return out.append('}').toString();
    }

    private static void group(StringBuilder out, String group, Map<String, Long> measuredAtMillis) {
        if (group != null) {
            out.append(",\"group\":");
            JsonText.string(out, group);
            Long at = measuredAtMillis.get(group);
            if (at != null) {
                out.append(",\"atMillis\":").append(at.longValue());
            }
        }
    }
}
