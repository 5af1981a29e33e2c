package org.fastflowj.patterns;

import java.util.Random;

/** Square matrices stored as a grid of blocks, each block its own row-major double[] (test helper). */
final class BlockedMatrices {
    private BlockedMatrices() {}

    static double[][][] zeros(int n, int bs) {
        int nb = n / bs;
        double[][][] m = new double[nb][nb][];
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                m[i][j] = new double[bs * bs];
            }
        }
        return m;
    }

    static double[][][] random(int n, int bs, long seed) {
        Random random = new Random(seed);
        double[][][] m = zeros(n, bs);
        for (double[][] row : m) {
            for (double[] block : row) {
                for (int e = 0; e < block.length; e++) {
                    block[e] = random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }

    // tag::gemm[]
    /** c += a * b on bs x bs row-major blocks. */
    static void gemm(double[] a, double[] b, double[] c, int bs) {
        for (int i = 0; i < bs; i++) {
            for (int k = 0; k < bs; k++) {
                double aik = a[i * bs + k];
                for (int j = 0; j < bs; j++) {
                    c[i * bs + j] += aik * b[k * bs + j];
                }
            }
        }
    }
    // end::gemm[]

    static void sequentialProduct(double[][][] a, double[][][] b, double[][][] c, int bs) {
        int nb = a.length;
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                for (int k = 0; k < nb; k++) {
                    gemm(a[i][k], b[k][j], c[i][j], bs);
                }
            }
        }
    }
}
