package org.fastflowj.bench.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.fastflowj.bench.net.GroupToGroup.Serialization;
import org.fastflowj.dist.DFF;

/**
 * What the per-frame MAC costs: {@link NetThroughput}'s group-to-group transfer (custom serializer) with
 * a shared secret, frames sealed ({@link DFF#SEAL_LOOPBACK_PROPERTY}) against not sealed, back to back
 * in the same JVM, the order swapped every round; the table shows the median of the per-round ratios,
 * of the rates and of the process CPU time per message (less disturbed by other load on a shared
 * machine than the rates).
 *
 * <pre>
 *   per cell (payload × batchSize), rounds × :
 *     plain    [source] ▶ [sender] ──BATCH──────────▶ [event loop] ▶ [receiver] ▶ [sink]
 *     sealed   [source] ▶ [sender] ──BATCH, MAC(32)─▶ [event loop: check] ▶ [receiver] ▶ [sink]
 * </pre>
 *
 * <p>Usage: {@code java -cp ff-bench/target/benchmarks.jar org.fastflowj.bench.net.SealedFramesCost
 * [--rounds 5] [--warmup 4] [--small 1000000] [--large 20000] [--cells 8x1,8x128,65536x8]}.
 */
public final class SealedFramesCost {
    private static final com.sun.management.OperatingSystemMXBean PROCESS = (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    /** One transfer's rate and the process CPU time it took per message (every thread of both groups). */
    private record Result(double messagesPerSecond, double cpuNanosPerMessage) {}

    private SealedFramesCost() {}

    public static void main(String[] args) throws Exception {
        NetThroughput.Args options = new NetThroughput.Args(args);
        int rounds = options.intValue("--rounds", 5);
        int warmUp = options.intValue("--warmup", 4);
        int small = options.intValue("--small", 1_000_000);
        int large = options.intValue("--large", 20_000);
        String cells = options.value("--cells", "8x1,8x128,65536x8");
        Path secret = Files.createTempFile("ffj-bench-secret", ".txt");
        Files.writeString(secret, "a secret for the benchmark");
        try {
            System.out.println("| payload | batchSize | plain msgs/s | sealed msgs/s | sealed / plain (range)"
                    + " | plain CPU ns/msg | sealed CPU ns/msg | CPU sealed / plain (range) |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            for (String cell : cells.split(",")) {
                int payload = Integer.parseInt(cell.substring(0, cell.indexOf('x')));
                int batch = Integer.parseInt(cell.substring(cell.indexOf('x') + 1));
                int messages = payload >= 1024 ? large : small;
                for (int i = 0; i < warmUp; i++) {
                    transfer(messages, payload, batch, secret, i % 2 == 0);
                }
                List<Result[]> results = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    boolean sealedFirst = round % 2 == 1;
                    Result first = transfer(messages, payload, batch, secret, sealedFirst);
                    Result second = transfer(messages, payload, batch, secret, !sealedFirst);
                    results.add(sealedFirst ? new Result[] {second, first} : new Result[] {first, second});
                }
                print(payload, batch, results);
            }
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    private static Result transfer(int messages, int payload, int batch, Path secret, boolean sealed) throws Exception {
        System.setProperty(DFF.SEAL_LOOPBACK_PROPERTY, Boolean.toString(sealed));
        try {
            long cpuBefore = PROCESS.getProcessCpuTime();
            double rate = GroupToGroup.run(messages, payload, batch, 64, Serialization.CUSTOM, secret.toString())
                    .messagesPerSecond();
            return new Result(rate, (PROCESS.getProcessCpuTime() - cpuBefore) / (double) messages);
        } finally {
            System.clearProperty(DFF.SEAL_LOOPBACK_PROPERTY);
            System.gc();
        }
    }

    private static void print(int payload, int batch, List<Result[]> results) {
        double[] ratios = sorted(results, r -> r[1].messagesPerSecond() / r[0].messagesPerSecond());
        double[] cpuRatios = sorted(results, r -> r[1].cpuNanosPerMessage() / r[0].cpuNanosPerMessage());
        System.out.printf(
                Locale.ROOT,
                "| %d B | %d | %.2e | %.2e | %.2f (%.2f–%.2f) | %.0f | %.0f | %.2f (%.2f–%.2f) |%n",
                payload,
                batch,
                median(sorted(results, r -> r[0].messagesPerSecond())),
                median(sorted(results, r -> r[1].messagesPerSecond())),
                median(ratios),
                ratios[0],
                ratios[ratios.length - 1],
                median(sorted(results, r -> r[0].cpuNanosPerMessage())),
                median(sorted(results, r -> r[1].cpuNanosPerMessage())),
                median(cpuRatios),
                cpuRatios[0],
                cpuRatios[cpuRatios.length - 1]);
    }

    private static double[] sorted(List<Result[]> results, ToDoubleFunction<Result[]> value) {
        return results.stream().mapToDouble(value).sorted().toArray();
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }
}
