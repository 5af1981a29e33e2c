package org.fastflowj.bench.net;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.fastflowj.bench.net.GroupToGroup.Serialization;
import org.fastflowj.bench.net.NettyBaseline.Flush;
import org.fastflowj.dist.GroupConfig;

/**
 * Group-to-group throughput of ff-dist over loopback against plain Netty moving the same bytes, in the
 * same JVM and the same minutes (the paper's Fig. 9, top). Prints one Markdown table per payload size.
 *
 * <pre>
 *   per payload size (8 B, 64 KiB), per batchSize (1, 8, 32, 128), rounds × :
 *
 *     Netty, flush each frame   [sender thread] ──frame──▶ [event loop: read every message]     (NettyBaseline)
 *     Netty, consolidated       the same behind ff-dist's FlushConsolidationHandler
 *     Netty via hand-offs       [source] ─SPSC─▶ [sender thread] ──frame──▶ [event loop] ─SPSC─▶ [sink]  (NettyHandOff)
 *                               consolidated; the bound of any design with source and sink on threads of their own
 *     FF-J Kryo                 [source] ▶ [sender] ──BATCH──▶ [event loop] ▶ [receiver] ▶ [sink] (GroupToGroup)
 *     FF-J custom               the same with ByteArraySerializer
 *     FF-J pre-batched          the source packs batchSize payloads per item, the sink unpacks (a bound)
 *     FF-J chunked              the source sends arrays of batchSize payloads, the sink walks them (a bound)
 *
 *   a round runs the seven back to back for each batch size in turn (both orders rotated every round); a
 *   round's ratio divides that round's FF-J figure by that round's plain Netty figure; the table shows
 *   medians over rounds.
 * </pre>
 *
 * <p>Why a plain {@code main} and not JMH: one transfer of 1 M small messages takes seconds, so JMH
 * could only run it single-shot, and it runs one benchmark's forks after another's, minutes apart: on
 * a machine shared with other work the load changes between the baseline's fork and ours, and the
 * ratio takes the drift. Here every FF-J run has its baselines seconds away, in the same JVM after the
 * same warm-up, and the median of the per-round ratios drops a round another process disturbed.
 *
 * <p>Usage: {@code java -Xmx2g -cp ff-bench/target/benchmarks.jar org.fastflowj.bench.net.NetThroughput
 * [--rounds 3] [--small 1000000] [--large 20000] [--batches 1,8,32,128] [--otf 256] [--sizes 8,65536]
 * [--warmup 8]}. {@code --otf}: frames in flight per link, both for FF-J ({@code messageOTF}) and
 * plain Netty; ff-dist's default unless given. Batch size 0 stands for {@code "auto"} (FF-J Kryo and custom; the others run at its cap).
 * {@code --small}/{@code --large}: messages per transfer for payloads below/from 1 KiB.
 */
public final class NetThroughput {
    private static final com.sun.management.OperatingSystemMXBean PROCESS = (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    static final double SMALL_GOAL = 0.5;
    static final double LARGE_GOAL = 0.7;
    /** Issue 18's goal against consolidated Netty; the columns of the hand-off bound are marked against it. */
    static final double BOUND_GOAL = 1.0;

    private static final int LARGE_FROM_BYTES = 1024;
    /** The ratio columns of {@link #printRow}, after one rate column per variant. */
    private static final int RATIO_COLUMNS = 8;

    /** What one transfer runs, and its column's label. */
    enum Variant {
        NETTY_EACH_FRAME("Netty each-frame"),
        NETTY_CONSOLIDATED("Netty consolidated"),
        /**
         * Consolidated Netty fed by a source thread and drained into a sink thread through one SPSC queue
         * each (NettyHandOff): the bound of any design whose source and sink are nodes on threads of their own.
         */
        NETTY_HANDOFF("Netty via hand-offs"),
        FFJ_KRYO("FF-J Kryo"),
        FFJ_CUSTOM("FF-J custom"),
        /** Not ff-dist's design: the edge nodes batch themselves (GroupToGroup.Serialization.PREBATCHED). */
        FFJ_PREBATCHED("FF-J pre-batched"),
        /** Not ff-dist's design: the source and sink hand over arrays of items (GroupToGroup.Serialization.CHUNKED). */
        FFJ_CHUNKED("FF-J chunked");

        final String label;

        Variant(String label) {
            this.label = label;
        }

        Transfer run(int messages, int payloadBytes, int configured, int messageOTF) throws Exception {
            // "auto" is ff-dist's own: the variants that batch by themselves run at its cap, as bounds.
            boolean auto = configured == GroupConfig.AUTO_BATCH_SIZE;
            int batchSize =
                    auto && this != FFJ_KRYO && this != FFJ_CUSTOM ? GroupConfig.AUTO_MAX_BATCH_SIZE : configured;
            return switch (this) {
                case NETTY_EACH_FRAME -> NettyBaseline.run(
                        messages, payloadBytes, batchSize, messageOTF, Flush.EACH_FRAME);
                case NETTY_CONSOLIDATED -> NettyBaseline.run(
                        messages, payloadBytes, batchSize, messageOTF, Flush.CONSOLIDATED);
                case NETTY_HANDOFF -> NettyHandOff.run(messages, payloadBytes, batchSize, messageOTF);
                case FFJ_KRYO -> GroupToGroup.run(messages, payloadBytes, batchSize, messageOTF, Serialization.KRYO);
                case FFJ_CUSTOM -> GroupToGroup.run(
                        messages, payloadBytes, batchSize, messageOTF, Serialization.CUSTOM);
                case FFJ_PREBATCHED -> GroupToGroup.run(
                        messages, payloadBytes, batchSize, messageOTF, Serialization.PREBATCHED);
                case FFJ_CHUNKED -> GroupToGroup.run(
                        messages, payloadBytes, batchSize, messageOTF, Serialization.CHUNKED);
            };
        }
    }

    private final int rounds;
    private final int smallMessages;
    private final int largeMessages;
    private final int[] batchSizes;
    private final int messageOTF;
    private final int[] payloadSizes;
    private final int warmUpRounds;

    private NetThroughput(Args args) {
        this.rounds = args.intValue("--rounds", 3);
        this.smallMessages = args.intValue("--small", 1_000_000);
        this.largeMessages = args.intValue("--large", 20_000);
        this.batchSizes = args.ints("--batches", "1,8,32,128");
        this.messageOTF = args.intValue("--otf", GroupConfig.DEFAULT_MESSAGE_OTF);
        this.payloadSizes = args.ints("--sizes", "8,65536");
        this.warmUpRounds = args.intValue("--warmup", 8);
    }

    public static void main(String[] args) throws Exception {
        new NetThroughput(new Args(args)).runAll();
    }

    /** One round's transfers, and the process CPU time each took per message (all threads: node, I/O, JIT, GC). */
    record Round(Map<Variant, Transfer> transfers, Map<Variant, Double> cpuNanosPerMessage) {
        double rate(Variant v, boolean megabytes) {
            Transfer t = transfers.get(v);
            return megabytes ? t.payloadMegabytesPerSecond() : t.messagesPerSecond();
        }

        double ratio(Variant ffj, Variant netty) {
            return transfers.get(ffj).messagesPerSecond() / transfers.get(netty).messagesPerSecond();
        }
    }

    private void runAll() throws Exception {
        System.out.printf(
                Locale.ROOT,
                "# NetThroughput %s: %d rounds after %d warm-up rounds, messageOTF %d, %d cores, %s %s%n",
                LocalDate.now(),
                rounds,
                warmUpRounds,
                messageOTF,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"));
        for (int payloadBytes : payloadSizes) {
            int messages = payloadBytes >= LARGE_FROM_BYTES ? largeMessages : smallMessages;
            warmUp(payloadBytes, messages);
            System.out.printf(Locale.ROOT, "%n## %d B payload, %,d messages per transfer%n%n", payloadBytes, messages);
            printHeader(payloadBytes >= LARGE_FROM_BYTES);
            List<Integer> batches = Arrays.stream(batchSizes).boxed().toList();
            List<List<Round>> byBatch = new ArrayList<>();
            batches.forEach(b -> byBatch.add(new ArrayList<>()));
            // Batch sizes interleave within a round, in an order rotated every round: every rate still rises
            // over a JVM's first minutes, and a batch size measured in a block of its own would take that drift
            // (the first rows would come out below the last ones for the same code).
            for (int round = 0; round < this.rounds; round++) {
                for (int i = 0; i < batches.size(); i++) {
                    int b = (i + round) % batches.size();
                    byBatch.get(b).add(runRound(messages, payloadBytes, batches.get(b), round));
                }
            }
            for (int b = 0; b < batches.size(); b++) {
                printRow(payloadBytes >= LARGE_FROM_BYTES, batches.get(b), byBatch.get(b));
            }
            printCpu(batches, byBatch);
        }
    }

    /**
     * Compiles the hot paths of every variant before anything is measured (results dropped):
     * {@code --warmup} rounds at the largest batch size, where a round is quickest, then one round per
     * batch size for what is particular to it. Every rate, the baseline's too, keeps rising for about 20
     * transfers of 1 M messages in a fresh JVM (8 B at batch 128: five to six times the first
     * transfer's rate): its threads leave the C2 compiler threads little of the two cores, and FF-J, with
     * more code on more threads, gets there last. A shorter warm-up measures that race instead: with one
     * round per batch size only, the Kryo / each-frame ratio of that cell comes out a fifth lower.
     */
    private void warmUp(int payloadBytes, int messages) throws Exception {
        int largestBatch = Arrays.stream(batchSizes).max().orElseThrow();
        for (int round = 0; round < warmUpRounds; round++) {
            runRound(messages, payloadBytes, largestBatch, round);
        }
        for (int batchSize : batchSizes) {
            runRound(messages, payloadBytes, batchSize, 0);
        }
    }

    private Round runRound(int messages, int payloadBytes, int batchSize, int round) throws Exception {
        Variant[] all = Variant.values();
        Map<Variant, Transfer> transfers = new EnumMap<>(Variant.class);
        Map<Variant, Double> cpu = new EnumMap<>(Variant.class);
        for (int i = 0; i < all.length; i++) {
            Variant variant = all[(i + round) % all.length]; // rotated: no variant always runs after another
            long cpuBefore = PROCESS.getProcessCpuTime();
            transfers.put(variant, runOrRetry(variant, messages, payloadBytes, batchSize));
            cpu.put(variant, (PROCESS.getProcessCpuTime() - cpuBefore) / (double) messages);
            System.gc(); // the previous transfer's garbage is collected here, not inside the next one
        }
        return new Round(transfers, cpu);
    }

    /**
     * Runs a transfer, and once more if it failed: FF-J's groups listen on ports that were free a moment
     * before (GroupToGroup), and on a shared machine another process may take one first. The failure is
     * printed, so a real bug shows (and fails the second time).
     */
    private Transfer runOrRetry(Variant variant, int messages, int payloadBytes, int batchSize) throws Exception {
        try {
            return variant.run(messages, payloadBytes, batchSize, messageOTF);
        } catch (Exception e) {
            System.err.println("retrying " + variant + " (batchSize " + batchSize + ") once after: " + e);
            e.printStackTrace();
            return variant.run(messages, payloadBytes, batchSize, messageOTF);
        }
    }

    /** Process CPU time per message, medians over rounds: where the two cores went. */
    private static void printCpu(List<Integer> batches, List<List<Round>> byBatch) {
        System.out.println();
        StringBuilder header = new StringBuilder("| batchSize | CPU ns/msg:");
        for (Variant v : Variant.values()) {
            header.append(' ').append(v.label).append(" |");
        }
        System.out.println(header);
        System.out.println("|---" + "|---".repeat(Variant.values().length) + "|");
        for (int b = 0; b < batches.size(); b++) {
            StringBuilder row =
                    new StringBuilder("| ").append(label(batches.get(b))).append(" |");
            for (Variant v : Variant.values()) {
                row.append(String.format(Locale.ROOT, " %.0f |", median(byBatch.get(b), r -> r.cpuNanosPerMessage()
                        .get(v))));
            }
            System.out.println(row);
        }
    }

    private static void printHeader(boolean large) {
        String unit = large ? "MB/s" : "msgs/s";
        StringBuilder header = new StringBuilder("| batchSize |");
        for (Variant v : Variant.values()) {
            header.append(' ').append(v.label).append(' ').append(unit).append(" |");
        }
        header.append(" Kryo / each-frame | custom / each-frame | Kryo / consolidated | custom / consolidated"
                + " | pre-batched / each-frame | chunked / each-frame | Kryo / hand-offs | hand-offs / consolidated |");
        System.out.println(header);
        System.out.println("|---" + "|---".repeat(Variant.values().length + RATIO_COLUMNS) + "|");
    }

    private static String label(int batchSize) {
        return batchSize == GroupConfig.AUTO_BATCH_SIZE ? "auto" : Integer.toString(batchSize);
    }

    private static void printRow(boolean large, int batchSize, List<Round> rounds) {
        StringBuilder row = new StringBuilder("| ").append(label(batchSize)).append(" |");
        for (Variant v : Variant.values()) {
            row.append(' ')
                    .append(format(median(rounds, r -> r.rate(v, large)), large))
                    .append(" |");
        }
        double goal = large ? LARGE_GOAL : SMALL_GOAL;
        for (Variant netty : List.of(Variant.NETTY_EACH_FRAME, Variant.NETTY_CONSOLIDATED)) {
            for (Variant ffj : List.of(Variant.FFJ_KRYO, Variant.FFJ_CUSTOM)) {
                row.append(' ')
                        .append(ratio(rounds, r -> r.ratio(ffj, netty), goal))
                        .append(" |");
            }
        }
        for (Variant bound : List.of(Variant.FFJ_PREBATCHED, Variant.FFJ_CHUNKED)) {
            row.append(' ')
                    .append(ratio(rounds, r -> r.ratio(bound, Variant.NETTY_EACH_FRAME), goal))
                    .append(" |");
        }
        row.append(' ')
                .append(ratio(rounds, r -> r.ratio(Variant.FFJ_KRYO, Variant.NETTY_HANDOFF), BOUND_GOAL))
                .append(" |");
        row.append(' ')
                .append(ratio(rounds, r -> r.ratio(Variant.NETTY_HANDOFF, Variant.NETTY_CONSOLIDATED), BOUND_GOAL))
                .append(" |");
        System.out.println(row);
    }

    private static String format(double value, boolean megabytes) {
        return megabytes ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2e", value);
    }

    /** The median ratio, bold when it meets the goal, and the range over rounds in brackets. */
    private static String ratio(List<Round> rounds, ToDoubleFunction<Round> ratio, double goal) {
        double[] all = rounds.stream().mapToDouble(ratio).sorted().toArray();
        double median = median(rounds, ratio);
        String mark = median >= goal ? "**" : "";
        return String.format(Locale.ROOT, "%s%.2f%s (%.2f–%.2f)", mark, median, mark, all[0], all[all.length - 1]);
    }

    static double median(List<Round> rounds, ToDoubleFunction<Round> value) {
        double[] sorted = rounds.stream().mapToDouble(value).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** {@code --name value} pairs; anything else is an error. */
    record Args(List<String> all) {
        Args(String[] args) {
            this(Arrays.asList(args));
            for (int i = 0; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 == args.length) {
                    throw new IllegalArgumentException("expected --name value pairs, got " + String.join(" ", args));
                }
            }
        }

        String value(String name, String otherwise) {
            int i = all.indexOf(name);
            return i < 0 ? otherwise : all.get(i + 1);
        }

        int intValue(String name, int otherwise) {
            return Integer.parseInt(value(name, Integer.toString(otherwise)));
        }

        int[] ints(String name, String otherwise) {
            return Arrays.stream(value(name, otherwise).split(","))
                    .mapToInt(Integer::parseInt)
                    .toArray();
        }
    }
}
