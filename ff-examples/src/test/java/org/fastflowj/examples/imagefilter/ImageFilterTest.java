package org.fastflowj.examples.imagefilter;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ImageFilterTest {
    private static final List<String> NAMES = List.of("a.png", "b.jpg", "c.gif", "d.png");

    @TempDir
    Path dir;

    private Path input;
    private Path output;

    @BeforeEach
    void createImages() throws IOException {
        input = Files.createDirectories(dir.resolve("in"));
        output = dir.resolve("out");
        Random random = new Random(3);
        for (String name : NAMES) {
            boolean alpha = name.endsWith(".png");
            BufferedImage image = new BufferedImage(
                    17 + random.nextInt(40),
                    9 + random.nextInt(30),
                    alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < image.getHeight(); y++) {
                for (int x = 0; x < image.getWidth(); x++) {
                    image.setRGB(x, y, random.nextInt());
                }
            }
            String format = name.substring(name.indexOf('.') + 1).replace("jpg", "jpeg");
            assertThat(ImageIO.write(image, format, input.resolve(name).toFile()))
                    .isTrue();
        }
        Files.writeString(input.resolve("notes.txt"), "not an image, not read");
    }

    /** The reference: blur then emboss, sequentially, on [y][x][channel] arrays with clamped edges. */
    private static int[][] expected(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        int w = image.getWidth();
        int h = image.getHeight();
        int[][] pixels = new int[h][w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                pixels[y][x] = image.getRGB(x, y);
            }
        }
        int[][] blurred = apply(pixels, new int[][] {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, 9);
        return apply(blurred, new int[][] {{-2, -1, 0}, {-1, 1, 1}, {0, 1, 2}}, 1);
    }

    private static int[][] apply(int[][] in, int[][] kernel, int divisor) {
        int h = in.length;
        int w = in[0].length;
        int[][] out = new int[h][w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int result = in[y][x] & 0xff000000;
                for (int shift : new int[] {16, 8, 0}) {
                    int acc = 0;
                    for (int ky = 0; ky < 3; ky++) {
                        for (int kx = 0; kx < 3; kx++) {
                            int yy = Math.max(0, Math.min(h - 1, y + ky - 1));
                            int xx = Math.max(0, Math.min(w - 1, x + kx - 1));
                            acc += kernel[ky][kx] * ((in[yy][xx] >> shift) & 0xff);
                        }
                    }
                    result |= Math.max(0, Math.min(255, acc / divisor)) << shift;
                }
                out[y][x] = result;
            }
        }
        return out;
    }

    private void assertOutputsEqualTheSequentialFilter() throws IOException {
        for (String name : NAMES) {
            BufferedImage written =
                    ImageIO.read(output.resolve(ImageWriter.pngName(name)).toFile());
            int[][] want = expected(input.resolve(name));
            assertThat(written.getHeight()).isEqualTo(want.length);
            for (int y = 0; y < want.length; y++) {
                for (int x = 0; x < want[y].length; x++) {
                    assertThat(written.getRGB(x, y))
                            .as(name + " at " + x + "," + y)
                            .isEqualTo(want[y][x]);
                }
            }
        }
        try (var files = Files.list(output)) {
            assertThat(files.count()).isEqualTo(NAMES.size());
        }
    }

    @Test
    void shouldWriteEachImageAsTheSequentialFilterDoesPixelForPixel() throws IOException {
        AppRunner run = AppRunner.run(
                "imagefilter", "--input", input.toString(), "--output", output.toString(), "--workers", "3");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertOutputsEqualTheSequentialFilter();
        assertThat(run.out).contains("imagefilter: 4 images written to " + output);
        assertThat(output.resolve("a.png")).exists();
        assertThat(output.resolve("b.png")).exists();
        assertThat(output.resolve("a.png.png")).doesNotExist();
    }

    @Test
    void shouldNameAMalformedImageAndExitTwo() throws IOException {
        Path broken = Files.write(input.resolve("broken.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3});

        AppRunner run = AppRunner.run("imagefilter", "--input", input.toString(), "--output", output.toString());

        assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
        assertThat(run.err).startsWith("imagefilter: " + broken + ": ").doesNotContain("\tat ");
        assertThat(run.err.lines().count()).isEqualTo(1);
    }

    @Test
    void shouldNameAMissingFolderAndExitTwo() {
        Path missing = dir.resolve("nothing-here");

        AppRunner run = AppRunner.run("imagefilter", "--input", missing.toString(), "--output", output.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--input: directory not found: " + missing);
    }

    @Test
    void shouldNameAFileGivenAsAFolder() throws IOException {
        Path file = Files.writeString(dir.resolve("plain.txt"), "x");

        AppRunner in = AppRunner.run("imagefilter", "--input", file.toString(), "--output", output.toString());
        AppRunner out = AppRunner.run("imagefilter", "--input", input.toString(), "--output", file.toString());

        assertThat(in.exitCode).isEqualTo(2);
        assertThat(in.err).contains("--input: " + file + " is a file; expected a directory");
        assertThat(out.exitCode).isEqualTo(2);
        assertThat(out.err).contains("--output: " + file + " is a file; expected a directory");
    }

    @Test
    void shouldWriteTheSameImagesAsTwoGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("imagefilter", dir);
        try (GroupCluster cluster = GroupCluster.start(
                config,
                List.of("G1", "G2"),
                "imagefilter",
                "--input",
                input.toString(),
                "--output",
                output.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertOutputsEqualTheSequentialFilter();
            assertThat(cluster.output("G1")).isEmpty();
        }
    }

    @Test
    void shouldWriteTheSameImagesWithHalfTheBlurWorkersInAThirdProcess() throws Exception {
        Path config = GroupCluster.configFor("imagefilter-spread", dir);
        try (GroupCluster cluster = GroupCluster.start(
                config,
                List.of("G1", "G2", "G3"),
                "imagefilter",
                "--spread",
                "--input",
                input.toString(),
                "--output",
                output.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertOutputsEqualTheSequentialFilter();
            assertThat(cluster.output("G3")).isEmpty();
        }
    }

    @Test
    void shouldRefuseToSpreadASingleBlurWorker() throws IOException {
        AppRunner run = AppRunner.run(
                "imagefilter",
                "--spread",
                "--workers",
                "1",
                "--input",
                input.toString(),
                "--output",
                output.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--spread: moves half of the blur workers to G3, so it needs --workers 2 or more");
    }
}
