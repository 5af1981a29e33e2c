package org.fastflowj.patterns;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

/**
 * The floor of a {@link MacroDataFlow} task's cost: what the generator's side does for one task of the
 * blocked matrix product (the task and its parameters allocated, the dependencies tracked and linked) and
 * its completion, all on one thread, nothing handed over, the tasks' bodies empty. A data-flow run of such
 * tasks shares its cores between this and the kernels, whatever its hand-overs cost.
 *
 * <pre>
 *   java -cp ff-core/target/classes:ff-core/target/test-classes:JCTOOLS_JAR \
 *       org.fastflowj.patterns.GeneratorCostProbe [N [BLOCK [ROUNDS]]]      (defaults 864 8 8)
 * </pre>
 */
public final class GeneratorCostProbe {
    private GeneratorCostProbe() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 864;
        int block = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int nb = n / block;
        double[][][] a = blocks(nb, block), b = blocks(nb, block), c = blocks(nb, block);
        Runnable nothing = () -> {};
        MdfTask.ReadySink none = task -> {
            throw new IllegalStateException("a chain of one object's tasks releases one successor at a time");
        };
        long tasks = (long) nb * nb * nb;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            DataDependencies dependencies = new DataDependencies(MacroDataFlow.DEFAULT_OUTSTANDING_TASKS);
            long index = 0;
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    double[] cij = c[i][j];
                    for (int k = 0; k < nb; k++) {
                        MacroDataFlow.Param[] params = {in(a[i][k]), in(b[k][j]), inout(cij)};
                        MdfTask task = new MdfTask(index++, null, nothing, params.clone()); // as add copies
                        for (MdfTask ready = dependencies.register(task) ? task : null; ready != null; ) {
                            ready.runBody();
                            ready = ready.complete(none);
                        }
                    }
                }
            }
            System.out.printf("%.0f ns per task (%d tasks)%n", (System.nanoTime() - start) / (double) tasks, tasks);
        }
    }

    private static double[][][] blocks(int nb, int block) {
        return new double[nb][nb][block * block];
    }
}
