package org.fastflowj.examples.mandelbrot;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fastflowj.examples.HelpOption;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.patterns.ParallelFor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mandelbrot [--size N] [--iterations N] [--workers K] [--grain G] [--out FILE.pgm]}. */
@Command(
        name = "mandelbrot",
        sortOptions = false,
        description = {
            "FastFlow's classic: the Mandelbrot set, its rows computed by a ParallelFor in dynamic chunks.",
            "Prints the time and a checksum (CRC-32 of the pixels) equal to a sequential run's."
        })
public final class MandelbrotCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--size", paramLabel = "N", description = "Image width and height (default: ${DEFAULT-VALUE}).")
    private int size = 800;

    @Option(
            names = "--iterations",
            paramLabel = "N",
            description = "Most iterations per point (default: ${DEFAULT-VALUE}).")
    private int iterations = 1024;

    @Option(
            names = "--workers",
            paramLabel = "K",
            description = "ParallelFor workers (default: the available processors).")
    private int workers = Runtime.getRuntime().availableProcessors();

    @Option(
            names = "--grain",
            paramLabel = "G",
            description = "Rows per dynamic chunk; 0 for one static block per worker (default: ${DEFAULT-VALUE}).")
    private long grain = 1;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the image there, as a binary PGM.")
    private Path outFile;

    @Option(names = "--sequential", description = "Compute on this thread only, for comparison.")
    private boolean sequential;

    @Mixin
    private HelpOption help;

    private final PrintStream out;

    public MandelbrotCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        OptionChecks.requireInRange(spec, "--size", size, 1, 16_384);
        OptionChecks.requireInRange(spec, "--iterations", iterations, 1, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--workers", workers, 1, Integer.MAX_VALUE);
        OptionChecks.requireInRange(spec, "--grain", grain, 0, Integer.MAX_VALUE);
        if (outFile != null) {
            OptionChecks.requireWritableFile(spec, "--out", outFile);
        }
        long start = System.nanoTime();
        Mandelbrot image;
        if (sequential) {
            image = Mandelbrot.renderSequential(size, iterations);
        } else {
            try (ParallelFor pf = new ParallelFor(workers)) {
                image = Mandelbrot.render(pf, size, iterations, grain);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (outFile != null) {
            try {
                Files.write(outFile, image.toPgm());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + outFile + ": " + e.getMessage(), e);
            }
        }
        out.printf("checksum: %08x%n", image.checksum());
        out.printf(
                "time: %.3f s for %dx%d points, at most %d iterations, %s%n",
                seconds, size, size, iterations, sequential ? "sequential" : workers + " workers");
        out.flush();
        return 0;
    }
}
