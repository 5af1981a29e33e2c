package org.fastflowj.bench.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fastflowj.bench.net.GroupToGroup.Serialization;
import org.fastflowj.dist.DFF;

/**
 * What the per-frame MAC costs: {@link NetThroughput}'s group-to-group transfer (custom serializer) with
 * a shared secret, frames sealed ({@link DFF#SEAL_LOOPBACK_PROPERTY}) against not sealed, back to back
 * in the same JVM, the order swapped every round; the table shows the median of the per-round ratios.
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
            System.out.println("| payload | batchSize | plain msgs/s | sealed msgs/s | sealed / plain (range) |");
            System.out.println("|---|---|---|---|---|");
            for (String cell : cells.split(",")) {
                int payload = Integer.parseInt(cell.substring(0, cell.indexOf('x')));
                int batch = Integer.parseInt(cell.substring(cell.indexOf('x') + 1));
                int messages = payload >= 1024 ? large : small;
                for (int i = 0; i < warmUp; i++) {
                    transfer(messages, payload, batch, secret, i % 2 == 0);
                }
                List<double[]> results = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    boolean sealedFirst = round % 2 == 1;
                    double first = transfer(messages, payload, batch, secret, sealedFirst);
                    double second = transfer(messages, payload, batch, secret, !sealedFirst);
                    results.add(sealedFirst ? new double[] {second, first} : new double[] {first, second});
                }
                print(payload, batch, results);
            }
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    private static double transfer(int messages, int payload, int batch, Path secret, boolean sealed) throws Exception {
        System.setProperty(DFF.SEAL_LOOPBACK_PROPERTY, Boolean.toString(sealed));
        try {
            return GroupToGroup.run(messages, payload, batch, 64, Serialization.CUSTOM, secret.toString())
                    .messagesPerSecond();
        } finally {
            System.clearProperty(DFF.SEAL_LOOPBACK_PROPERTY);
            System.gc();
        }
    }

    private static void print(int payload, int batch, List<double[]> results) {
        double[] plain = results.stream().mapToDouble(r -> r[0]).sorted().toArray();
        double[] sealed = results.stream().mapToDouble(r -> r[1]).sorted().toArray();
        double[] ratios =
                results.stream().mapToDouble(r -> r[1] / r[0]).sorted().toArray();
        System.out.printf(
                Locale.ROOT,
                "| %d B | %d | %.2e | %.2e | %.2f (%.2f–%.2f) |%n",
                payload,
                batch,
                plain[plain.length / 2],
                sealed[sealed.length / 2],
                ratios[ratios.length / 2],
                ratios[0],
                ratios[ratios.length - 1]);
    }
}
