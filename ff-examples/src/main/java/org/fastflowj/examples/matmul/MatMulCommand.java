package org.fastflowj.examples.matmul;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.patterns.MacroDataFlow;
import org.fastflowj.patterns.MacroDataFlowException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code matmul [--n 216|432|864] [--block 8] [--groups 1|2|4]}: the DF-Threads paper's blocked matrix
 * multiplication, in one process or with workers in several groups (configs/matmul-2.json, matmul-4.json).
 */
@Command(
        name = "matmul",
        sortOptions = false,
        description = {
            "The DF-Threads paper's benchmark: C = A x B, blocked, one macro data-flow task per block product"
                    + " (in A(i,k), in B(k,j), inout C(i,j)).",
            "Prints the time, C's checksum and digest (a hash of its values' bits); --check also runs the sequential blocked product and compares"
                    + " every value bit for bit.",
            "With --groups G (or a config of G groups), G0 runs the scheduler and the other groups only workers:"
                    + " tasks cross with the blocks a group does not hold yet, C's blocks come back. Only G0 prints"
                    + " (with --cpu, every group its CPU time)."
        })
public final class MatMulCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--n",
            paramLabel = "N",
            description = "Matrix order: 216, 432 or 864 in the paper (default: ${DEFAULT-VALUE}).")
    private int n = 432;

    @Option(names = "--block", paramLabel = "B", description = "Block size; divides N (default: ${DEFAULT-VALUE}).")
    private int block = 8;

    @Option(
            names = "--workers",
            paramLabel = "K",
            description = "Worker threads per group (default: the available processors).")
    private int workers = Runtime.getRuntime().availableProcessors();

    @Option(
            names = "--groups",
            paramLabel = "G",
            description = "Groups G0..G(G-1): G0 holds the generator, the scheduler and K workers, the others K"
                    + " workers each (default: the config's group count, else 1).")
    private Integer groups;

    @Option(
            names = "--outstanding",
            paramLabel = "T",
            description = "Tasks added but not done before the generator waits (default: ${DEFAULT-VALUE}).")
    private int outstanding = MacroDataFlow.DEFAULT_OUTSTANDING_TASKS;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of A's and B's values (default: ${DEFAULT-VALUE}).")
    private long seed = 1;

    @Option(names = "--check", description = "Compare with the sequential blocked product, bit for bit.")
    private boolean check;

    @Option(
            names = "--cpu",
            description = "Print the CPU time the product took in this process, in every group (the energy"
                    + " proxy: their sum is the product's).")
    private boolean cpu;

    @Mixin
    private RunOptionsMixin common;

    private final PrintStream out;

    public MatMulCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (n < 1 || n > 8192 || block < 1 || n % block != 0) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--n " + n + " --block " + block + ": expected 1 <= N <= 8192 and B dividing N");
        }
        int groupCount = groups != null
                ? groups
                : DFF.config().map(DffConfig::groups).map(List::size).orElse(1);
        if (workers < 1 || outstanding < 1 || groupCount < 1) {
            throw new ParameterException(
                    spec.commandLine(), "expected --workers >= 1, --outstanding >= 1 and --groups >= 1");
        }
        DFF.register(BlockedMatrix.Gemm.class); // the task that crosses groups
        BlockedMatrix a = BlockedMatrix.random(n, block, seed);
        BlockedMatrix b = BlockedMatrix.random(n, block, seed + 1);
        BlockedMatrix c = BlockedMatrix.zeros(n, block);
        long tasks = (long) Math.pow(c.blocksPerSide(), 3);
        long cpuStart = ProcessCpu.nanos();
        long start = System.nanoTime();
        try (MacroDataFlow mdf = new MacroDataFlow(workers, outstanding)) {
            if (groupCount > 1) {
                mdf.createGroup("G0");
                for (int g = 1; g < groupCount; g++) {
                    mdf.addWorkerGroup("G" + g, workers);
                }
            }
            c.addProduct(mdf, a, b);
        } catch (MacroDataFlowException e) {
            spec.commandLine().getErr().println("matmul failed: " + e.getMessage());
            if (common.verbose()) {
                e.printStackTrace(spec.commandLine().getErr());
            }
            return 1;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (ProcessCpu.nanos() - cpuStart) / 1e9;
        if (!AppRun.holds("G0")) {
            printCpu(cpuSeconds); // a worker group: C is G0's, but its CPU time counts in the product's
            return 0;
        }
        if (groupCount > 1) {
            out.printf(
                    "time: %.3f s for n=%d block %d (%d tasks, %d workers in each of %d groups)%n",
                    seconds, n, block, tasks, workers, groupCount);
        } else {
            out.printf("time: %.3f s for n=%d block %d (%d tasks, %d workers)%n", seconds, n, block, tasks, workers);
        }
        out.println("checksum: " + c.checksum());
        out.printf("digest: %016x%n", c.digest());
        printCpu(cpuSeconds);
        if (check) {
            BlockedMatrix expected = BlockedMatrix.zeros(n, block);
            long sequentialStart = System.nanoTime();
            expected.addProductSequential(a, b);
            double sequentialSeconds = (System.nanoTime() - sequentialStart) / 1e9;
            boolean equal = c.bitEqual(expected);
            out.printf(
                    "check: %s the sequential blocked product (%.3f s)%n",
                    equal ? "equal, bit for bit, to" : "DIFFERENT from", sequentialSeconds);
            out.flush();
            return equal ? 0 : 1;
        }
        out.flush();
        return 0;
    }

    private void printCpu(double seconds) {
        if (cpu) {
            out.printf("cpu: %.3f s in this process%n", seconds);
        }
        out.flush();
    }
}
