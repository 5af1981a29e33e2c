package org.fastflowj.core.metrics;

import java.util.List;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;

/**
 * A {@link RunStats} snapshot as the live page's {@code /api/stats} answer: the counters as they are,
 * stamped with the time they were read, so that the page computes rates between two answers however late
 * each one arrived.
 *
 * <pre>
 * {"atMillis": 1234.5,
 *  "nodes": [{"name": "parser", "itemsIn": 10, "itemsOut": 10, "svcNanos": 5,
 *             "blockedInputNanos": 7, "blockedOutputNanos": 0}, ...],
 *  "links": [{"link": "G1 -> G2", "messages": 3, "bytes": 96, "batches": 1, "creditWaitNanos": 0}, ...],
 *  "queues": [{"from": "source", "to": "parser", "feedback": false, "queued": 512, "capacity": 512}, ...]}
 * </pre>
 */
final class StatsJson {
    private StatsJson() {}

    /** {@code stats} read {@code atMillis} after the server started. */
    static String format(RunStats stats, double atMillis) {
        StringBuilder out = new StringBuilder(256 + 160 * stats.nodes().size());
        out.append("{\"atMillis\":").append(atMillis).append(",\"nodes\":[");
        List<NodeStats> nodes = stats.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            NodeStats n = nodes.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "name");
            JsonText.string(out, n.name());
            out.append(",\"itemsIn\":").append(n.itemsIn());
            out.append(",\"itemsOut\":").append(n.itemsOut());
            out.append(",\"svcNanos\":").append(n.svcNanos());
            out.append(",\"blockedInputNanos\":").append(n.blockedInputNanos());
            out.append(",\"blockedOutputNanos\":").append(n.blockedOutputNanos());
            out.append('}');
        }
        out.append("],\"links\":[");
        List<LinkStats> links = stats.links();
        for (int i = 0; i < links.size(); i++) {
            LinkStats l = links.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "link");
            JsonText.string(out, l.link());
            out.append(",\"messages\":").append(l.messages());
            out.append(",\"bytes\":").append(l.bytes());
            out.append(",\"batches\":").append(l.batches());
            out.append(",\"creditWaitNanos\":").append(l.creditWaitNanos());
            out.append('}');
        }
        out.append("],\"queues\":[");
        List<QueueStats> queues = stats.queues();
        for (int i = 0; i < queues.size(); i++) {
            QueueStats q = queues.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "from");
            JsonText.string(out, q.from());
            out.append(",\"to\":");
            JsonText.string(out, q.to());
            out.append(",\"feedback\":").append(q.feedback());
            out.append(",\"queued\":").append(q.queued());
            out.append(",\"capacity\":").append(q.capacity());
            out.append('}');
        }
        return out.append("]}").toString();
    }
}
