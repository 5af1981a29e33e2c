package org.fastflowj.examples.mandelbrot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MandelbrotTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 7})
    void shouldComputeTheSequentialImageBitForBit(long grain) {
        Mandelbrot expected = Mandelbrot.renderSequential(150, 300);
        try (ParallelFor pf = new ParallelFor(3)) {
            Mandelbrot image = Mandelbrot.render(pf, 150, 300, grain);
            assertThat(image.pixels).isEqualTo(expected.pixels);
        }
        // not a blank picture: the set (black) and points escaping at once (white) are both there
        assertThat(expected.pixels).contains((byte) 0).contains((byte) 255);
    }

    @Test
    void shouldPrintTheSequentialChecksumAndWriteTheImage() throws Exception {
        Path pgm = dir.resolve("m.pgm");
        AppRunner run = AppRunner.run(
                "mandelbrot", "--size", "96", "--iterations", "256", "--workers", "2", "--out", pgm.toString());

        Mandelbrot expected = Mandelbrot.renderSequential(96, 256);
        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains(String.format("checksum: %08x%n", expected.checksum()));
        assertThat(run.out).containsPattern("time: [0-9.]+ s for 96x96 points, at most 256 iterations, 2 workers");
        byte[] file = Files.readAllBytes(pgm);
        byte[] header = "P5\n96 96\n255\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(Arrays.copyOf(file, header.length)).isEqualTo(header);
        assertThat(Arrays.copyOfRange(file, header.length, file.length)).isEqualTo(expected.pixels);
    }

    @Test
    void shouldPrintTheSameChecksumSequentially() {
        AppRunner parallel = AppRunner.run("mandelbrot", "--size", "64", "--iterations", "100", "--grain", "0");
        AppRunner sequential = AppRunner.run("mandelbrot", "--size", "64", "--iterations", "100", "--sequential");

        assertThat(parallel.exitCode).as(parallel.toString()).isZero();
        assertThat(sequential.out.lines().findFirst())
                .isEqualTo(parallel.out.lines().findFirst());
    }

    @Test
    void shouldRejectBadOptions() {
        AppRunner run = AppRunner.run("mandelbrot", "--size", "0");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("mandelbrot: --size must be between 1 and 16384, got 0");
    }

    @Test
    void shouldRefuseADirectoryAsTheImageBeforeRendering() {
        AppRunner run = AppRunner.run("mandelbrot", "--size", "64", "--out", dir.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--out: " + dir + " is a directory; expected a file to write");
        assertThat(run.out).isEmpty();
    }
}
