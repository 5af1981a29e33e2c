package org.fastflowj.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;

/**
 * Quick iterations on {@link OptimizedPipelineSpeedup} without JMH: wall and process CPU milliseconds
 * per run of each variant, round after round. On a shared machine the CPU time is the steadier figure
 * (it counts spinning as work, so it also shows waits that burn a core).
 *
 * <pre>
 *   java -cp ... org.fastflowj.bench.OptimizedPipelineProbe [iterationsPerStage [rounds [VARIANT,...]]]
 *   variants: SEQ (the sequential bound), NONE, LEVEL1, L1SPIN, L1BLOCK (LEVEL1 with that wait
 *   strategy), L1ONE (LEVEL1 with one thread: the fused chain without any hand-off)
 * </pre>
 */
public final class OptimizedPipelineProbe {
    private OptimizedPipelineProbe() {}

    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        String[] variants = args.length > 2 ? args[2].split(",") : new String[] {"SEQ", "NONE", "LEVEL1"};
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long checksum = 0;
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder();
            for (String variant : variants) {
                RunOptions options = options(variant);
                long cpuStart = os.getProcessCpuTime();
                long start = System.nanoTime();
                checksum += options == null
                        ? OptimizedPipelineSpeedup.sequential(iterations, OptimizedPipelineSpeedup.ITEMS)
                        : OptimizedPipelineSpeedup.run(iterations, OptimizedPipelineSpeedup.ITEMS, options);
                long wallMs = (System.nanoTime() - start) / 1_000_000;
                long cpuMs = (os.getProcessCpuTime() - cpuStart) / 1_000_000;
                line.append(String.format("%-7s %4d ms (cpu %4d)  ", variant, wallMs, cpuMs));
            }
            System.out.println(line);
        }
        System.out.println("checksum " + checksum);
    }

    /** The run options of a variant; null for the sequential bound. */
    private static RunOptions options(String variant) {
        RunOptions level1 = RunOptions.defaults().optimize(OptLevel.LEVEL1);
        return switch (variant) {
            case "SEQ" -> null;
            case "NONE" -> RunOptions.defaults();
            case "LEVEL1" -> level1;
            case "L1SPIN" -> level1.waitStrategy(WaitStrategy.BUSY_SPIN);
            case "L1BLOCK" -> level1.waitStrategy(WaitStrategy.BLOCKING);
            case "L1ONE" -> level1.maxThreads(1);
            default -> throw new IllegalArgumentException("unknown variant " + variant);
        };
    }
}
