package org.fastflowj.examples.matsquare;

import java.util.SplittableRandom;

/**
 * A square matrix of doubles, row-major, with its number in the stream. Crosses groups with {@link
 * MatrixSerializer} (one bulk copy of the doubles), not Kryo.
 */
public final class Matrix {
    final int id;
    final int n;
    final double[] values;

    Matrix(int id, int n, double[] values) {
        if (values.length != n * n) {
            throw new IllegalArgumentException("a " + n + "x" + n + " matrix needs " + n * n + " values");
        }
        this.id = id;
        this.n = n;
        this.values = values;
    }

    /** Matrix {@code id} of the stream: values in [-1, 1) from a generator seeded by {@code seed} and the id. */
    static Matrix generate(int id, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + id);
        double[] values = new double[n * n];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextDouble(-1, 1);
        }
        return new Matrix(id, n, values);
    }

    /** This matrix times itself (i-k-j loop order: each element sums over k in ascending order). */
    Matrix square() {
        double[] result = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                double a = values[i * n + k];
                int row = k * n;
                int out = i * n;
                for (int j = 0; j < n; j++) {
                    result[out + j] += a * values[row + j];
                }
            }
        }
        return new Matrix(id, n, result);
    }

    /** The sum of the values, in row-major order. */
    double sum() {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum;
    }
}
