package org.fastflowj.examples.matsquare;

import java.io.PrintStream;
import org.fastflowj.core.Node;

/**
 * The generator, head of the loop: sends the stream of matrices (on demand, to whichever farm has room),
 * then takes the squares fed back, keeping each one's sum by matrix number. When all are back it prints
 * the checksum, the sums added in matrix order, so it is the sequential checksum bit for bit.
 */
final class Generator extends Node<Matrix, Matrix> {
    private final int count;
    private final int n;
    private final long seed;
    private final PrintStream out;
    private final double[] sums;
    private int received;

    Generator(int count, int n, long seed, PrintStream out) {
        this.count = count;
        this.n = n;
        this.seed = seed;
        this.out = out;
        this.sums = new double[count];
    }

    @Override
    protected Matrix svc(Matrix square) {
        if (square == null) { // first call: the whole stream
            for (int id = 0; id < count; id++) {
                sendOut(Matrix.generate(id, n, seed));
            }
            return count == 0 ? eos() : goOn();
        }
        sums[square.id] = square.sum();
        return ++received < count ? goOn() : eos();
    }

    @Override
    protected void svcEnd() {
        out.println("checksum: " + checksum(sums));
        out.flush();
    }

    /** The checksum of a run: the matrices' sums added in matrix order. */
    static double checksum(double[] sums) {
        double total = 0;
        for (double s : sums) {
            total += s;
        }
        return total;
    }
}
