package org.fastflowj.examples.matmul;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.fastflowj.patterns.MacroDataFlow;

/**
 * A square matrix of order {@code n} stored as {@code n/bs x n/bs} blocks, each its own row-major
 * {@code double[bs*bs]}: a block is then one object, which is what a macro data-flow task names as its
 * input or output.
 */
public final class BlockedMatrix {
    private final int blockSize;
    private final double[][][] blocks; // [block row][block column] -> bs*bs values

    private BlockedMatrix(int n, int blockSize) {
        this.blockSize = blockSize;
        int nb = n / blockSize;
        blocks = new double[nb][nb][];
        for (double[][] row : blocks) {
            for (int j = 0; j < nb; j++) {
                row[j] = new double[blockSize * blockSize];
            }
        }
    }

    public static BlockedMatrix zeros(int n, int blockSize) {
        if (n < 1 || blockSize < 1 || n % blockSize != 0) {
            throw new IllegalArgumentException("the order " + n + " is not a multiple of the block size " + blockSize);
        }
        return new BlockedMatrix(n, blockSize);
    }

    /** Values uniform in [-0.5, 0.5), the same for the same order, block size and seed. */
    public static BlockedMatrix random(int n, int blockSize, long seed) {
        BlockedMatrix m = zeros(n, blockSize);
        SplittableRandom random = new SplittableRandom(seed);
        for (double[][] row : m.blocks) {
            for (double[] block : row) {
                for (int e = 0; e < block.length; e++) {
                    block[e] = random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }

    public int blocksPerSide() {
        return blocks.length;
    }

    /** {@code c += a * b} on {@code bs x bs} row-major blocks: the one kernel both products use. */
    static void gemm(double[] a, double[] b, double[] c, int bs) {
        for (int i = 0; i < bs; i++) {
            for (int k = 0; k < bs; k++) {
                double aik = a[i * bs + k];
                int cRow = i * bs, bRow = k * bs;
                for (int j = 0; j < bs; j++) {
                    c[cRow + j] += aik * b[bRow + j];
                }
            }
        }
    }

    /**
     * The macro data-flow task {@code c += a * b} on blocks of order {@code bs}, parameters {@code (a, b, c)}: a
     * record, so that it may run in another group (its parameters cross by value, {@code c} comes back).
     */
    public record Gemm(int bs) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] params) {
            gemm((double[]) params[0], (double[]) params[1], (double[]) params[2], bs);
        }
    }

    /** {@code this += a * b} by the classical three nested loops over blocks, on the calling thread. */
    public void addProductSequential(BlockedMatrix a, BlockedMatrix b) {
        int nb = blocks.length;
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                for (int k = 0; k < nb; k++) {
                    gemm(a.blocks[i][k], b.blocks[k][j], blocks[i][j], blockSize);
                }
            }
        }
    }

    /**
     * {@code this += a * b} with one macro data-flow task per block product, in the sequential loop's order:
     * tasks on one block of C run in k order (so the sums are bit for bit the sequential ones), different
     * blocks of C in parallel. The tasks are {@link Gemm} kernels, so {@code mdf} may have workers in other
     * groups.
     */
    public void addProduct(MacroDataFlow mdf, BlockedMatrix a, BlockedMatrix b) {
        int nb = blocks.length;
        Gemm kernel = new Gemm(blockSize); // immutable: one for every task
        mdf.run(g -> {
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    double[] cij = blocks[i][j];
                    for (int k = 0; k < nb; k++) {
                        g.add(kernel, in(a.blocks[i][k]), in(b.blocks[k][j]), inout(cij));
                    }
                }
            }
        });
    }

    /** The sum of every value, block by block in row order: equal for equal matrices. */
    public double checksum() {
        double sum = 0;
        for (double[][] row : blocks) {
            for (double[] block : row) {
                for (double v : block) {
                    sum += v;
                }
            }
        }
        return sum;
    }

    /**
     * A 64-bit FNV-1a hash of every value's bits, block row by block row, each block row-major: equal
     * digests mean, short of a collision, bit-equal products, also against a product computed elsewhere (the
     * MPI baseline prints the same digest of its own).
     */
    public long digest() {
        long hash = 0xcbf29ce484222325L;
        for (double[][] row : blocks) {
            for (double[] block : row) {
                for (double v : block) {
                    hash ^= Double.doubleToRawLongBits(v);
                    hash *= 0x100000001b3L;
                }
            }
        }
        return hash;
    }

    /** Whether every value equals the other matrix's bit for bit. */
    public boolean bitEqual(BlockedMatrix other) {
        if (other.blocks.length != blocks.length || other.blockSize != blockSize) {
            return false;
        }
        for (int i = 0; i < blocks.length; i++) {
            for (int j = 0; j < blocks.length; j++) {
                if (!Arrays.equals(blocks[i][j], other.blocks[i][j])) { // Arrays.equals on doubles compares bits
                    return false;
                }
            }
        }
        return true;
    }
}
