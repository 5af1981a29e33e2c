package org.fastflowj.examples.mandelbrot;

import java.util.zip.CRC32;
import org.fastflowj.patterns.ParallelFor;

/**
 * FastFlow's classic Mandelbrot set: an image of {@code size x size} points of the complex plane, each
 * pixel the number of iterations of {@code z = z² + c} before {@code |z| > 2}, at most
 * {@code maxIterations}, shown as a grey level. Rows near the set cost up to {@code maxIterations} times
 * more than rows far from it, which is why the rows are spread by {@link ParallelFor} in dynamic chunks.
 *
 * <p>Each pixel is computed by the same floating-point operations whichever thread computes it, so the
 * parallel image is bit for bit the sequential one.
 */
public final class Mandelbrot {
    /** The plane's window, as in FastFlow's example: from (-2.125, -1.5), 3 wide. */
    static final double LEFT = -2.125;

    static final double TOP = -1.5;
    static final double RANGE = 3.0;

    final int size;
    final int maxIterations;
    /** Row-major grey levels. */
    final byte[] pixels;

    Mandelbrot(int size, int maxIterations) {
        this.size = size;
        this.maxIterations = maxIterations;
        this.pixels = new byte[size * size];
    }

    /** The image computed by {@code pf}, {@code grain} rows per dynamic chunk ({@code 0}: static blocks). */
    static Mandelbrot render(ParallelFor pf, int size, int maxIterations, long grain) {
        Mandelbrot image = new Mandelbrot(size, maxIterations);
        // tag::mandelbrot[]
        pf.parallelFor(0, size, 1, grain, row -> image.renderRow((int) row));
        // end::mandelbrot[]
        return image;
    }

    /** The reference: every row in order on the calling thread. */
    static Mandelbrot renderSequential(int size, int maxIterations) {
        Mandelbrot image = new Mandelbrot(size, maxIterations);
        for (int row = 0; row < size; row++) {
            image.renderRow(row);
        }
        return image;
    }

    void renderRow(int row) {
        double step = RANGE / size;
        double ci = TOP + row * step;
        int offset = row * size;
        for (int column = 0; column < size; column++) {
            pixels[offset + column] = grey(escapeIterations(LEFT + column * step, ci));
        }
    }

    private int escapeIterations(double cr, double ci) {
        double zr = 0;
        double zi = 0;
        int k = 0;
        while (k < maxIterations && zr * zr + zi * zi <= 4.0) {
            double next = zr * zr - zi * zi + cr;
            zi = 2 * zr * zi + ci;
            zr = next;
            k++;
        }
        return k;
    }

    /** Points of the set are black, the others brighter the sooner they escape. */
    private byte grey(int iterations) {
        return iterations >= maxIterations ? 0 : (byte) (255 - iterations * 255L / maxIterations);
    }

    /** CRC-32 of the pixels: equal images, equal checksums. */
    long checksum() {
        CRC32 crc = new CRC32();
        crc.update(pixels);
        return crc.getValue();
    }

    /** The image as a binary PGM file (P5), which any image viewer opens. */
    byte[] toPgm() {
        byte[] header = ("P5\n" + size + " " + size + "\n255\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] file = new byte[header.length + pixels.length];
        System.arraycopy(header, 0, file, 0, header.length);
        System.arraycopy(pixels, 0, file, header.length, pixels.length);
        return file;
    }
}
