package org.fastflowj.core.metrics;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;

/**
 * A run's statistics in the Prometheus text exposition format, version 0.0.4: one counter family per
 * statistic, one sample per node thread ({@code node} label) or network link ({@code link} label); one
 * family for the nodes' own {@linkplain org.fastflowj.core.NodeCounter counters} ({@code node} and
 * {@code counter} labels); and two gauges per channel ({@code from} and {@code to} labels): the items
 * waiting in it, and its capacity when it is bounded.
 */
public final class PrometheusText {
    /** The {@code Content-Type} of the format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {}

    public static String format(RunStats stats) {
        StringBuilder out = new StringBuilder(4096);
        List<NodeStats> nodes = stats.nodes();
        family(
                out,
                "fastflowj_node_items_in_total",
                "Items taken from input channels and given to svc.",
                nodes,
                "node",
                NodeStats::name,
                NodeStats::itemsIn);
        family(
                out,
                "fastflowj_node_items_out_total",
                "Items put on output channels (EOS not counted).",
                nodes,
                "node",
                NodeStats::name,
                NodeStats::itemsOut);
        family(
                out,
                "fastflowj_node_blocked_input_seconds_total",
                "Time the node waited for input.",
                nodes,
                "node",
                NodeStats::name,
                n -> n.blockedInputNanos() / 1e9);
        family(
                out,
                "fastflowj_node_blocked_output_seconds_total",
                "Time the node waited for room on its outputs.",
                nodes,
                "node",
                NodeStats::name,
                n -> n.blockedOutputNanos() / 1e9);
        if (nodes.stream().anyMatch(n -> !n.counters().isEmpty())) {
            out.append("# HELP fastflowj_node_counter_total What a node counted: items its error policy skipped"
                    + " or dead-lettered, and its own counters.\n");
            out.append("# TYPE fastflowj_node_counter_total counter\n");
            for (NodeStats n : nodes) {
                for (Map.Entry<String, Long> c : n.counters().entrySet()) {
                    out.append("fastflowj_node_counter_total{node=\"");
                    escape(out, n.name());
                    out.append("\",counter=\"");
                    escape(out, c.getKey());
                    out.append("\"} ").append(c.getValue().longValue()).append('\n');
                }
            }
        }
        List<LinkStats> links = stats.links();
        if (!links.isEmpty()) {
            family(
                    out,
                    "fastflowj_link_messages_total",
                    "Items, EOS and end marks carried by a network link.",
                    links,
                    "link",
                    LinkStats::link,
                    LinkStats::messages);
            family(
                    out,
                    "fastflowj_link_bytes_total",
                    "Payload bytes carried by a network link.",
                    links,
                    "link",
                    LinkStats::link,
                    LinkStats::bytes);
            family(
                    out,
                    "fastflowj_link_batches_total",
                    "Frames carried by a network link.",
                    links,
                    "link",
                    LinkStats::link,
                    LinkStats::batches);
            family(
                    out,
                    "fastflowj_link_credit_wait_seconds_total",
                    "Time a link's sender waited for credit.",
                    links,
                    "link",
                    LinkStats::link,
                    l -> l.creditWaitNanos() / 1e9);
        }
        List<QueueStats> queues = stats.queues();
        if (!queues.isEmpty()) {
            out.append("# HELP fastflowj_queue_items Items waiting in a channel between two node threads.\n");
            out.append("# TYPE fastflowj_queue_items gauge\n");
            for (QueueStats q : queues) {
                queueSample(out, "fastflowj_queue_items", q, q.queued());
            }
            out.append("# HELP fastflowj_queue_capacity_items Items a bounded channel holds before its producer"
                    + " waits.\n");
            out.append("# TYPE fastflowj_queue_capacity_items gauge\n");
            for (QueueStats q : queues) {
                if (q.capacity() >= 0) {
                    queueSample(out, "fastflowj_queue_capacity_items", q, q.capacity());
                }
            }
        }
        stats.checkpoints().ifPresent(c -> checkpoints(out, c));
        return out.toString();
    }

    private static void checkpoints(StringBuilder out, CheckpointStats c) {
        sample(out, "fastflowj_checkpoints_completed_total", "counter", "Checkpoints completed.", c.completed());
        sample(
                out,
                "fastflowj_checkpoint_restarts_total",
                "counter",
                "Restarts from a checkpoint after a failure.",
                c.restarts());
        sample(out, "fastflowj_checkpoint_last_id", "gauge", "The newest completed checkpoint's number.", c.lastId());
        sample(
                out,
                "fastflowj_checkpoint_last_duration_seconds",
                "gauge",
                "The newest completed checkpoint's time from its request to being durable.",
                c.lastDurationNanos() / 1e9);
        sample(
                out,
                "fastflowj_checkpoint_last_size_bytes",
                "gauge",
                "The size of the newest completed checkpoint's states.",
                c.lastSizeBytes());
        sample(
                out,
                "fastflowj_checkpoint_last_alignment_seconds",
                "gauge",
                "The longest a node held inputs back to align the newest completed checkpoint's barriers.",
                c.lastAlignmentNanos() / 1e9);
    }

    private static void sample(StringBuilder out, String name, String type, String help, double value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        out.append(name).append(' ');
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            out.append((long) value);
        } else {
            out.append(value);
        }
        out.append('\n');
    }

    private static void queueSample(StringBuilder out, String name, QueueStats q, long value) {
        out.append(name).append("{from=\"");
        escape(out, q.from());
        out.append("\",to=\"");
        escape(out, q.to());
        out.append("\"} ").append(value).append('\n');
    }

    private static <T> void family(
            StringBuilder out,
            String name,
            String help,
            List<T> rows,
            String label,
            Function<T, String> labelValue,
            ToDoubleFunction<T> value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        for (T row : rows) {
            out.append(name).append('{').append(label).append("=\"");
            escape(out, labelValue.apply(row));
            out.append("\"} ");
            double v = value.applyAsDouble(row);
            if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                out.append((long) v);
            } else {
                out.append(v);
            }
            out.append('\n');
        }
    }

    /** Label values escape backslash, double quote and line feed, as the format requires. */
    private static void escape(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }
}
