package org.fastflowj.core.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.fastflowj.testing.HeadlessChromium;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser, against a live run: its scripts ran (the DOM holds every thread and a
 * rate above zero) and it drew something (a screenshot of the right size, neither blank nor one colour).
 * Skips, saying why, where no chromium is installed ({@code apt-get install chromium}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LivePageInChromiumTest {
    private static final int VIRTUAL_MILLIS = 3000;
    private static final List<String> THREADS =
            List.of(LiveRun.SOURCE, "ff-squares-emitter", "ff-squares-worker0", "ff-squares-worker1", LiveRun.SINK);

    @TempDir
    Path workDir;

    private HeadlessChromium chromium;

    @BeforeEach
    void findChromium() {
        Optional<HeadlessChromium> found = HeadlessChromium.find(workDir);
        assumeTrue(
                found.isPresent(),
                "no chromium or chromium-browser on the PATH: the live page's browser test needs Debian's chromium"
                        + " package (apt-get install chromium)");
        chromium = found.orElseThrow();
    }

    @Test
    void shouldShowEveryThreadWithItsRateOnceThePageScriptsRan() throws Exception {
        String dom;
        try (LiveRun run = new LiveRun().start()) {
            dom = chromium.dumpDom(run.url("/"), VIRTUAL_MILLIS);
        }

        assertThat(dom).contains("running: 5 threads");
        for (String thread : THREADS) {
            assertThat(dom).as("the table row of %s", thread).contains("<tr data-node=\"" + thread + "\">");
            assertThat(dom).as("the box of %s in the drawing", thread).contains("<g data-vertex=\"" + thread + "\">");
        }
        assertThat(rate(dom, LiveRun.SINK, "in-rate"))
                .as("items into the sink per second")
                .isPositive();
        assertThat(rate(dom, LiveRun.SOURCE, "out-rate"))
                .as("items out of the source per second")
                .isPositive();
        assertThat(rate(dom, LiveRun.SINK, "queued"))
                .as("items waiting for the sink, measured from its input channels")
                .isNotNegative();
        assertThat(row(dom, "ff-squares-worker0"))
                .as("a worker's input channel, measured with its capacity")
                .containsPattern("<td class=\"queued\" data-value=\"\\d+\">\\d+ / \\d+ \\(\\d+%\\)</td>");
        assertThat(row(dom, LiveRun.SOURCE))
                .as("a source has no input channel")
                .contains("<td class=\"queued\">-</td>");
        assertThat(row(dom, LiveRun.SINK))
                .as("the sink's skipped items, counted by its error policy")
                .containsPattern("<td class=\"counters\">skipped [1-9]\\d*</td>");
        assertThat(row(dom, "ff-squares-worker0"))
                .as("a node with no counters")
                .contains("<td class=\"counters\">-</td>");
        assertThat(dom).contains("farm squares", "none: this run has no distributed group");
    }

    @Test
    void shouldDrawAScreenshotThatIsNeitherBlankNorOneColour() throws Exception {
        Path png;
        try (LiveRun run = new LiveRun().start()) {
            png = chromium.screenshot(run.url("/"), VIRTUAL_MILLIS);
        }
        BufferedImage image = ImageIO.read(png.toFile());

        assertThat(image).as("a PNG at %s", png).isNotNull();
        assertThat(image.getWidth()).isEqualTo(HeadlessChromium.WIDTH);
        assertThat(image.getHeight()).isEqualTo(HeadlessChromium.HEIGHT);
        int background = image.getRGB(image.getWidth() - 1, image.getHeight() - 1);
        Set<Integer> colours = new HashSet<>();
        long drawn = 0;
        long busyBoxPixels = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                drawn += rgb == (background & 0xFFFFFF) ? 0 : 1;
                busyBoxPixels += isBusyBoxGreen(rgb) ? 1 : 0;
            }
        }
        long pixels = (long) image.getWidth() * image.getHeight();
        assertThat(colours.size()).as("distinct colours (text, boxes, edges)").isGreaterThan(16);
        assertThat(drawn).as("pixels not of the background colour").isGreaterThan(pixels / 20);
        assertThat(busyBoxPixels)
                .as("pixels of the green that fills a thread moving items (five boxes of 210x76)")
                .isGreaterThan(3L * 200 * 50);
    }

    /** The page's {@code .box.busy} fill, #dafbe1, give or take the colour management of the screenshot. */
    private static boolean isBusyBoxGreen(int rgb) {
        int r = rgb >> 16 & 0xFF;
        int g = rgb >> 8 & 0xFF;
        int b = rgb & 0xFF;
        return Math.abs(r - 0xda) <= 4 && Math.abs(g - 0xfb) <= 4 && Math.abs(b - 0xe1) <= 4;
    }

    /** The number a cell of the threads table holds (its {@code data-value}). */
    private static double rate(String dom, String thread, String column) {
        String row = row(dom, thread);
        Matcher cell = Pattern.compile("class=\"" + column + "\" data-value=\"([-0-9.eE]+)\"")
                .matcher(row);
        assertThat(cell.find())
                .as("a measured %s in the row of %s: %s", column, thread, row)
                .isTrue();
        return Double.parseDouble(cell.group(1));
    }

    private static String row(String dom, String thread) {
        Matcher row = Pattern.compile("<tr data-node=\"" + Pattern.quote(thread) + "\">(.*?)</tr>")
                .matcher(dom);
        assertThat(row.find()).as("the row of %s", thread).isTrue();
        return row.group(1);
    }
}
