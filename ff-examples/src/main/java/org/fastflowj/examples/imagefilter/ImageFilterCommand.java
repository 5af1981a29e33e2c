package org.fastflowj.examples.imagefilter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code imagefilter --input DIR --output DIR [--workers K] [--spread]}: Fig. 7 of the 2012 paper. */
@Command(
        name = "imagefilter",
        sortOptions = false,
        description = {
            "The 2012 paper's Fig. 7: reads the PNG, JPEG and GIF images of a folder, blurs them in one farm and"
                    + " embosses them in a second (groups G1 and G2), and writes each as NAME.png to the output folder.",
            "Prints the images written and the time."
        })
public final class ImageFilterCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--input", required = true, paramLabel = "DIR", description = "Folder of images.")
    private Path input;

    @Option(names = "--output", required = true, paramLabel = "DIR", description = "Folder for the results (created).")
    private Path output;

    @Option(names = "--workers", paramLabel = "K", description = "Workers per farm (default: ${DEFAULT-VALUE}).")
    private int workers = 2;

    @Option(
            names = "--spread",
            description =
                    "Run the second half of the blur farm's workers in group G3 (configs/imagefilter-spread.json).")
    private boolean spread;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final PrintStream out;

    public ImageFilterCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (workers < 1) {
            throw usageError("--workers: expected at least 1, got " + workers);
        }
        if (spread && workers < 2) {
            throw usageError("--spread: moves half of the blur workers to G3, so it needs --workers 2 or more");
        }
        List<Path> images = AppRun.holds("G1") ? images(input) : List.of();
        if (AppRun.holds("G2")) {
            OptionChecks.requireDirectoryToWrite(spec, "--output", output);
            try {
                Files.createDirectories(output);
            } catch (IOException e) {
                throw usageError("--output: cannot create folder " + output + ": " + e.getMessage());
            }
        }
        DFF.serializer(Image.class, new ImageSerializer());
        long start = System.nanoTime();
        ImageWriter writer = new ImageWriter(output);
        int code = AppRun.run(
                spec, ImageFilter.build(images, writer, workers, spread), common.verbose(), stats.requested());
        if (code == 0 && AppRun.holds("G2")) {
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf("imagefilter: %d images written to %s in %.3f s%n", writer.written(), output, seconds);
            out.flush();
        }
        return code;
    }

    /** The image files of the folder, by name. */
    private List<Path> images(Path folder) {
        OptionChecks.requireDirectory(spec, "--input", folder);
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString().toLowerCase(Locale.ROOT);
                if (Files.isRegularFile(entry) && name.matches(".*\\.(png|jpe?g|gif)")) {
                    files.add(entry);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw usageError("--input: cannot read folder " + folder + ": " + e);
        }
        files.sort(null);
        return files;
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
