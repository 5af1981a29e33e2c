package org.fastflowj.examples.matsquare;

import java.io.PrintStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;

/**
 * Table 1 (left) of the 2012 paper: a stream of matrices squared by farms on two groups, on demand, the
 * squares fed back to the generator.
 *
 * <pre>
 *        ┌──────────── G0 ─────────────┐    ┌──── G1 ─────┐
 *   ┌──▶ Generator ──┬──▶ Farm0 (k workers)   Farm1 (k workers)
 *   │                └─────────────────────────▶ ...      │
 *   └─────────── squares fed back ◀──────────────┴────────┘
 * </pre>
 *
 * An all-to-all with the generator as the only L-Worker and one farm per group as R-Workers: a farm is
 * never split, so each group holds whole farms.
 */
public final class MatSquare {
    private MatSquare() {}

    public static AllToAll build(int count, int n, long seed, int workersPerFarm, PrintStream out) {
        Generator generator = new Generator(count, n, seed, out);
        Farm local = farm(workersPerFarm);
        Farm remote = farm(workersPerFarm);
        AllToAll a2a = new AllToAll()
                .firstSet(generator)
                .secondSet(local, remote)
                .onDemand()
                .wrapAround();
        a2a.createGroup("G0").include(generator).include(local);
        a2a.createGroup("G1").include(remote);
        return a2a;
    }

    private static Farm farm(int workers) {
        return Farm.of(workers, () -> Node.of(Matrix::square)).onDemand();
    }
}
