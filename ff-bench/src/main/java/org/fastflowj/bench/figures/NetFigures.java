package org.fastflowj.bench.figures;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.bench.net.GroupToGroup;
import org.fastflowj.bench.net.NettyBaseline;
import org.fastflowj.bench.net.Transfer;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.examples.a2abw.A2aBandwidth;

/**
 * The 2022 paper's Fig. 9: group-to-group throughput against plain Netty and the link ceiling (top left),
 * Kryo against the custom serializer (top right), the all-to-all's aggregate bandwidth (bottom right).
 * The loopback rows run their groups in this JVM ({@link GroupToGroup}, {@link LocalGroups}). With the
 * emulated cluster up, the group-to-group rows also run on its shaped link ({@link ShapedLink}: one process
 * per end) and the all-to-all's groups are started on its hosts by ff-launcher ({@link ClusterGroups}); the
 * shaped link's ceiling comes from iperf3 between two hosts of the cluster.
 */
final class NetFigures {
    /** Frames in flight per link, for FF-J and plain Netty alike: ff-dist's default, as {@code NetThroughput}'s. */
    private static final int MESSAGE_OTF = GroupConfig.DEFAULT_MESSAGE_OTF;
    /** The all-to-all's shaped rows move at least this much (not in a smoke run): 13 seconds of a 1 Gbit/s link. */
    static final long SHAPED_A2A_MIN_BYTES = 1536L << 20;

    private NetFigures() {}

    static final Figure GROUP_TO_GROUP = new Figure() {
        @Override
        public String name() {
            return "fig9-group-to-group";
        }

        @Override
        public void run(Context c) throws Exception {
            // A fresh JVM speeds up for about 20 transfers while C2 compiles both sides (FF-J's last): warm
            // both up first, at the smallest message and the largest batch, where per-message code dominates.
            int warmups = c.scale() == Scale.SMOKE ? 0 : c.scale() == Scale.SHORT ? 4 : 8;
            int warmupBatch = c.scale().batchSizes.get(c.scale().batchSizes.size() - 1);
            for (int round = 0; round < warmups; round++) {
                int bytes = c.scale().messageBytes.get(0);
                NettyBaseline.run(
                        c.scale().messagesFor(bytes),
                        bytes,
                        warmupBatch,
                        MESSAGE_OTF,
                        NettyBaseline.Flush.CONSOLIDATED);
                GroupToGroup.run(
                        c.scale().messagesFor(bytes), bytes, warmupBatch, MESSAGE_OTF, GroupToGroup.Serialization.KRYO);
            }
            for (int bytes : c.scale().messageBytes) {
                int messages = c.scale().messagesFor(bytes);
                for (int batch : c.scale().batchSizes) {
                    for (int rep = 0; rep < c.scale().repetitions; rep++) {
                        // Netty first and FF-J second in odd rounds, the other way in even ones: drift hits both.
                        boolean nettyFirst = rep % 2 == 0;
                        Transfer netty = null;
                        if (nettyFirst) {
                            netty = NettyBaseline.run(
                                    messages, bytes, batch, MESSAGE_OTF, NettyBaseline.Flush.CONSOLIDATED);
                        }
                        Transfer ffj =
                                GroupToGroup.run(messages, bytes, batch, MESSAGE_OTF, GroupToGroup.Serialization.KRYO);
                        if (!nettyFirst) {
                            netty = NettyBaseline.run(
                                    messages, bytes, batch, MESSAGE_OTF, NettyBaseline.Flush.CONSOLIDATED);
                        }
                        c.log()
                                .point(
                                        name(),
                                        "FF-J batch " + batch,
                                        bytes,
                                        rep,
                                        ffj.payloadMegabytesPerSecond(),
                                        "MB/s");
                        c.log()
                                .point(
                                        name(),
                                        "Netty batch " + batch,
                                        bytes,
                                        rep,
                                        netty.payloadMegabytesPerSecond(),
                                        "MB/s");
                        c.log()
                                .point(
                                        name() + "-ratio",
                                        "FF-J / Netty, batch " + batch,
                                        bytes,
                                        rep,
                                        ffj.payloadMegabytesPerSecond() / netty.payloadMegabytesPerSecond(),
                                        "ratio");
                    }
                }
            }
            c.log().note(name(), "loopback: both groups, and both Netty ends, in one JVM");
            if (c.clusterPrefix() != null) {
                shaped(c);
            } else {
                c.log()
                        .note(
                                name(),
                                "no emulated cluster (cluster.sh up 2, then --cluster ffj): shaped-link rows skipped");
            }
            Map<String, Double> levels = new LinkedHashMap<>();
            Double loopback = c.ceilingMegabytes("loopback");
            Double shaped = c.ceilingMegabytes("shaped");
            if (loopback != null) {
                levels.put("iperf3 loopback", loopback);
            }
            if (shaped != null) {
                levels.put("iperf3 shaped 1 Gbit/s", shaped);
            }
            c.plots()
                    .lines(
                            name(),
                            "Fig. 9 (top left): group to group, loopback",
                            "message bytes",
                            "MB/s (payload)",
                            true,
                            true,
                            Plots.medians(c.log().points(name())),
                            levels);
            c.plots()
                    .lines(
                            name() + "-ratio",
                            "Fig. 9 (top left): FF-J / plain Netty, same run",
                            "message bytes",
                            "ratio",
                            true,
                            false,
                            Plots.medians(c.log().points(name() + "-ratio")),
                            Map.of("1.0", 1.0));
        }
    };

    /**
     * The shaped-link rows: messages of 512 B and more (the goal's range; smaller ones are bound by the per-message
     * cost, not the link), every batch size, one process per end on two hosts of the cluster.
     */
    private static void shaped(Context c) throws Exception {
        String figure = "fig9-group-to-group-shaped";
        ShapedLink link = new ShapedLink(c.clusterPrefix(), c.scale() == Scale.PAPER ? 600 : 180);
        Double ceiling = c.ceilingMegabytes("shaped");
        int repetitions = c.scale() == Scale.PAPER ? c.scale().repetitions : 1;
        for (int bytes : c.scale().messageBytes) {
            if (bytes < 512) {
                continue;
            }
            // At least two seconds of a 1 Gbit/s link, so the link, not the warm-up, sets the rate.
            int messages =
                    (int) Math.max(c.scale().messagesFor(bytes), (c.scale() == Scale.SMOKE ? 8e6 : 250e6) / bytes);
            for (int batch : c.scale().batchSizes) {
                for (int rep = 0; rep < repetitions; rep++) {
                    ShapedLink.Transfer ffjTransfer = link.ffj(messages, bytes, batch, MESSAGE_OTF);
                    ShapedLink.Transfer nettyTransfer = link.netty(messages, bytes, batch, MESSAGE_OTF);
                    double ffj = ffjTransfer.megabytesPerSecond();
                    double netty = nettyTransfer.megabytesPerSecond();
                    // The link carries a fixed number of bytes per second: FF-J can move at most Netty's
                    // payload times the ratio of the two senders' bytes on the link per payload byte.
                    double framingBound =
                            nettyTransfer.wireBytesPerPayloadByte() / ffjTransfer.wireBytesPerPayloadByte();
                    if (!Double.isNaN(framingBound)) {
                        c.log()
                                .point(
                                        figure + "-ratio",
                                        "framing bound (Netty / FF-J link bytes per payload byte), batch " + batch,
                                        bytes,
                                        rep,
                                        framingBound,
                                        "ratio");
                    }
                    c.log().point(figure, "FF-J batch " + batch, bytes, rep, ffj, "MB/s");
                    // Not plotted: where a cell falls short of Netty, whether it lost the time at the start.
                    c.log()
                            .point(
                                    figure + "-first-message",
                                    "FF-J batch " + batch,
                                    bytes,
                                    rep,
                                    ffjTransfer.firstMessageMillis(),
                                    "ms");
                    c.log()
                            .point(
                                    figure + "-first-message",
                                    "Netty batch " + batch,
                                    bytes,
                                    rep,
                                    nettyTransfer.firstMessageMillis(),
                                    "ms");
                    c.log().point(figure, "Netty batch " + batch, bytes, rep, netty, "MB/s");
                    c.log().point(figure + "-ratio", "FF-J / Netty, batch " + batch, bytes, rep, ffj / netty, "ratio");
                    if (ceiling != null) {
                        c.log()
                                .point(
                                        figure + "-ratio",
                                        "FF-J / iperf3, batch " + batch,
                                        bytes,
                                        rep,
                                        ffj / ceiling,
                                        "ratio");
                    }
                }
            }
        }
        Map<String, Double> levels = new LinkedHashMap<>();
        if (ceiling != null) {
            levels.put("iperf3 shaped link", ceiling);
        }
        c.plots()
                .lines(
                        figure,
                        "Fig. 9 (top left): group to group, 1 Gbit/s shaped link",
                        "message bytes",
                        "MB/s (payload)",
                        true,
                        false,
                        Plots.medians(c.log().points(figure)),
                        levels);
        c.plots()
                .lines(
                        figure + "-ratio",
                        "Fig. 9 (top left), shaped link: FF-J / Netty and FF-J / iperf3",
                        "message bytes",
                        "ratio",
                        true,
                        false,
                        Plots.medians(c.log().points(figure + "-ratio")),
                        Map.of("0.95", 0.95));
    }

    static final Figure SERIALIZERS = new Figure() {
        @Override
        public String name() {
            return "fig9-serializers";
        }

        @Override
        public void run(Context c) throws Exception {
            for (int bytes : c.scale().serializerBytes) {
                int messages = Math.max(20, c.scale().messagesFor(bytes));
                for (int rep = 0; rep < c.scale().repetitions; rep++) {
                    Transfer kryo = GroupToGroup.run(messages, bytes, 1, MESSAGE_OTF, GroupToGroup.Serialization.KRYO);
                    Transfer custom =
                            GroupToGroup.run(messages, bytes, 1, MESSAGE_OTF, GroupToGroup.Serialization.CUSTOM);
                    c.log().point(name(), "Kryo", bytes, rep, kryo.payloadMegabytesPerSecond(), "MB/s");
                    c.log()
                            .point(
                                    name(),
                                    "custom (ByteArraySerializer)",
                                    bytes,
                                    rep,
                                    custom.payloadMegabytesPerSecond(),
                                    "MB/s");
                }
            }
            Map<String, Double> levels = new LinkedHashMap<>();
            Double loopback = c.ceilingMegabytes("loopback");
            if (loopback != null) {
                levels.put("iperf3 loopback", loopback);
            }
            c.plots()
                    .lines(
                            name(),
                            "Fig. 9 (top right): Kryo against a custom serializer, batch 1",
                            "message bytes",
                            "MB/s (payload)",
                            true,
                            false,
                            Plots.medians(c.log().points(name())),
                            levels);
        }
    };

    /**
     * The shaped rows' input: the loopback file, repeated up to {@link #SHAPED_A2A_MIN_BYTES}. The rate is
     * taken from the first chunk sent anywhere to the last one's arrival, and the groups (a JVM each,
     * starting on two shared cores) come up over about half a second, while the first senders may send
     * only as much as their receivers buffer, so a short transfer measures the start, not the link: the
     * transfer has to be long enough for that start to be a small part of it.
     */
    private static Path shapedInput(Context c, Path loopbackInput, byte[] data) throws IOException {
        if (data.length >= SHAPED_A2A_MIN_BYTES || c.scale() == Scale.SMOKE) {
            return loopbackInput;
        }
        Path file = c.scratch().resolve("a2a-shaped-input.bin");
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < SHAPED_A2A_MIN_BYTES; written += data.length) {
                out.write(data);
            }
        }
        return file;
    }

    /**
     * The all-to-all on the emulated cluster, started by ff-launcher: the sender groups L1..Lk on host 1,
     * the receiver groups and the sink on host 2, so every chunk crosses the shaped link; the attainable
     * rate is the link's iperf3 ceiling.
     */
    private static void allToAllShaped(Context c, Path file, int receivers) throws Exception {
        long bytes = Files.size(file);
        String figure = "fig9-all-to-all-shaped";
        ClusterGroups cluster =
                new ClusterGroups(c.clusterPrefix(), c.scratch(), c.scale() == Scale.PAPER ? 1800 : 300);
        Double ceiling = c.ceilingMegabytes("shaped");
        int repetitions = c.scale().repetitions; // each transfer starts its groups' JVMs anew
        for (int senders : c.scale().a2aSenders) {
            List<ClusterGroups.Placement> groups = new ArrayList<>();
            for (int i = 1; i <= senders; i++) {
                groups.add(new ClusterGroups.Placement("L" + i, 1));
            }
            for (int j = 1; j <= receivers; j++) {
                groups.add(new ClusterGroups.Placement("R" + j, 2));
            }
            groups.add(new ClusterGroups.Placement("S", 2));
            for (int rep = 0; rep < repetitions; rep++) {
                String printed = cluster.run(
                        figure,
                        groups,
                        "8",
                        List.of(
                                "a2abw",
                                "--input",
                                file.toString(),
                                "--lworkers",
                                Integer.toString(senders),
                                "--rworkers",
                                Integer.toString(receivers),
                                "--chunk-kb",
                                "64"));
                Matcher total = A2A_TOTAL.matcher(printed);
                Matcher rate = A2A_RATE.matcher(printed);
                if (!total.find() || Long.parseLong(total.group(1)) != bytes || !rate.find()) {
                    throw new IllegalStateException("all-to-all on the cluster with " + senders + " senders: expected "
                            + bytes + " bytes, the launcher printed: " + printed);
                }
                double megabytes = Double.parseDouble(rate.group(1));
                c.log().point(figure, "FF-J, " + receivers + " receiver groups", senders, rep, megabytes, "MB/s");
                if (ceiling != null) {
                    c.log()
                            .point(
                                    figure + "-ratio",
                                    "FF-J / iperf3 (attainable)",
                                    senders,
                                    rep,
                                    megabytes / ceiling,
                                    "ratio");
                }
            }
        }
        c.log()
                .note(
                        figure,
                        "groups started by ff-launcher in the cluster's namespaces (host netns:" + c.clusterPrefix()
                                + "1 and " + c.clusterPrefix() + "2): senders on host 1, receivers and sink on"
                                + " host 2, one JVM per group");
        Map<String, Double> levels = new LinkedHashMap<>();
        if (ceiling != null) {
            levels.put("iperf3 shaped link (attainable)", ceiling);
        }
        c.plots()
                .lines(
                        figure,
                        "Fig. 9 (bottom right): all-to-all over the 1 Gbit/s shaped link, 64 KiB chunks",
                        "sender groups",
                        "aggregate MB/s",
                        false,
                        false,
                        Plots.medians(c.log().points(figure)),
                        levels);
        if (ceiling != null) {
            c.plots()
                    .lines(
                            figure + "-ratio",
                            "Fig. 9 (bottom right), shaped link: FF-J / iperf3",
                            "sender groups",
                            "ratio",
                            false,
                            false,
                            Plots.medians(c.log().points(figure + "-ratio")),
                            Map.of("0.93", 0.93));
        }
    }

    private static final Pattern A2A_RATE = Pattern.compile("a2abw: ([0-9.]+) MB/s");
    private static final Pattern A2A_TOTAL = Pattern.compile("total: (\\d+) bytes");

    static final Figure ALL_TO_ALL = new Figure() {
        @Override
        public String name() {
            return "fig9-all-to-all";
        }

        @Override
        public void run(Context c) throws Exception {
            int receivers = 2;
            Path file = c.scratch().resolve("a2a-input.bin");
            byte[] data = new byte[c.scale().a2aFileBytes];
            new Random(42).nextBytes(data);
            Files.write(file, data);
            for (int senders : c.scale().a2aSenders) {
                for (int rep = 0; rep < c.scale().repetitions; rep++) {
                    ByteArrayOutputStream text = new ByteArrayOutputStream();
                    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
                    List<String> groups = new ArrayList<>();
                    for (int i = 1; i <= senders; i++) {
                        groups.add("L" + i);
                    }
                    for (int j = 1; j <= receivers; j++) {
                        groups.add("R" + j);
                    }
                    groups.add("S");
                    LocalGroups.run(
                            A2aBandwidth.build(file, senders, receivers, 64 * 1024, out),
                            groups,
                            "8",
                            SerializationConfig.builder()
                                    .allowPackage("org.fastflowj.examples")
                                    .build(),
                            300);
                    String printed = text.toString(StandardCharsets.UTF_8);
                    Matcher total = A2A_TOTAL.matcher(printed);
                    Matcher rate = A2A_RATE.matcher(printed);
                    if (!total.find() || Long.parseLong(total.group(1)) != data.length || !rate.find()) {
                        throw new IllegalStateException("all-to-all with " + senders + " senders: expected "
                                + data.length + " bytes, the sink printed: " + printed);
                    }
                    c.log()
                            .point(
                                    name(),
                                    "FF-J, " + receivers + " receiver groups",
                                    senders,
                                    rep,
                                    Double.parseDouble(rate.group(1)),
                                    "MB/s");
                }
            }
            if (c.clusterPrefix() != null) {
                Path shapedFile = shapedInput(c, file, data);
                try {
                    allToAllShaped(c, shapedFile, receivers);
                } finally {
                    if (!shapedFile.equals(file)) {
                        Files.deleteIfExists(shapedFile);
                    }
                }
            } else {
                c.log()
                        .note(
                                name(),
                                "no emulated cluster (cluster.sh up 2, then --cluster ffj): shaped-link rows skipped");
            }
            Files.deleteIfExists(file);
            c.log().note(name(), "loopback: every group in one JVM, so all of them share the 2 cores");
            Map<String, Double> levels = new LinkedHashMap<>();
            Double loopback = c.ceilingMegabytes("loopback");
            if (loopback != null) {
                levels.put("iperf3 loopback (attainable)", loopback);
            }
            c.plots()
                    .lines(
                            name(),
                            "Fig. 9 (bottom right): all-to-all, 64 KiB chunks",
                            "sender groups",
                            "aggregate MB/s",
                            false,
                            false,
                            Plots.medians(c.log().points(name())),
                            levels);
        }
    };
}
