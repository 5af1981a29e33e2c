package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
 * The launcher's live page ({@code --ui}) in a real browser, against a real run of three group processes:
 * it draws every group's band and threads, all of them counted (none "in another process"), and every
 * group's links with measured rates; a screenshot of it is neither blank nor one colour. Skips, saying
 * why, where no chromium is installed ({@code apt-get install chromium}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LauncherPageInChromiumTest {
    private static final Pattern METRICS_URL = Pattern.compile("metrics of every group at (http://\\S+)/metrics");
    private static final int VIRTUAL_MILLIS = 3000;
    private static final List<String> LINK_GROUPS = List.of("A", "B", "C");

    @TempDir
    Path dir;

    private HeadlessChromium chromium;

    @BeforeEach
    void findChromium() {
        Optional<HeadlessChromium> found = HeadlessChromium.find(dir);
        assumeTrue(
                found.isPresent(),
                "no chromium or chromium-browser on the PATH: the launcher's live page test needs Debian's"
                        + " chromium package (apt-get install chromium)");
        chromium = found.orElseThrow();
    }

    @Test
    void shouldDrawEveryGroupWithItsThreadsRatesAndLinks() throws Exception {
        String dom = whileARunGoesOn(base -> chromium.dumpDom(base + "/", VIRTUAL_MILLIS));

        Matcher drawing =
                Pattern.compile("<svg id=\"graph\".*?</svg>", Pattern.DOTALL).matcher(dom);
        assertThat(drawing.find()).as("the drawing in %s", dom).isTrue();
        assertThat(drawing.group())
                .contains(">group A</text>", ">group B</text>", ">group C</text>")
                .as("every thread counted by the group that runs it")
                .doesNotContain("runs in another process", "waiting for counters");
        assertThat(dom).containsPattern("running: \\d+ threads");
        assertThat(number(
                        dom,
                        "<tr data-node=\"square\" data-group=\"B\">.*?class=\"in-rate\" data-value=\"([-0-9.eE]+)\""))
                .as("items into B's square per second")
                .isPositive();
        assertThat(dom)
                .as("the fill of the channel into square, measured in B")
                .containsPattern(
                        "<tr data-node=\"square\" data-group=\"B\">.*?<td class=\"queued\" data-value=\"\\d+\">"
                                + "\\d+ / \\d+ \\(\\d+%\\)</td>");
        for (String link : List.of("A -&gt; B", "B -&gt; C")) {
            String[] ends = link.split(" -&gt; ");
            assertThat(Pattern.compile("<tr data-link=\"" + link + "\"")
                            .matcher(dom)
                            .results())
                    .as("one row for %s, counted at both ends", link)
                    .hasSize(1);
            assertThat(dom)
                    .as("the link %s with the groups at its ends and its counts", link)
                    .containsPattern("<tr data-link=\"" + link + "\" data-from=\"" + ends[0] + "\" data-to=\""
                            + ends[1] + "\"><td class=\"name\">" + link + "</td><td class=\"from group\">" + ends[0]
                            + "</td><td class=\"to group\">" + ends[1] + "</td>.*?<td class=\"messages\">[1-9]");
        }
        // A's sender may sit out a whole second waiting for B's credit (B takes 1 ms per item): the rate
        // is asserted where the items always move
        assertThat(number(dom, "<tr data-link=\"B -&gt; C\".*?class=\"message-rate\" data-value=\"([-0-9.eE]+)\""))
                .as("messages per second on B -> C")
                .isPositive();
    }

    @Test
    void shouldDrawAScreenshotThatIsNeitherBlankNorOneColour() throws Exception {
        Path png = whileARunGoesOn(base -> chromium.screenshot(base + "/", VIRTUAL_MILLIS));
        BufferedImage image = ImageIO.read(png.toFile());

        assertThat(image).as("a PNG at %s", png).isNotNull();
        assertThat(image.getWidth()).isEqualTo(HeadlessChromium.WIDTH);
        assertThat(image.getHeight()).isEqualTo(HeadlessChromium.HEIGHT);
        int background = image.getRGB(image.getWidth() - 1, image.getHeight() - 1) & 0xFFFFFF;
        Set<Integer> colours = new HashSet<>();
        long drawn = 0;
        long bandPixels = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                drawn += rgb == background ? 0 : 1;
                bandPixels += near(rgb, 0xfff8c5) ? 1 : 0;
            }
        }
        long pixels = (long) image.getWidth() * image.getHeight();
        assertThat(colours.size()).as("distinct colours (text, boxes, edges)").isGreaterThan(16);
        assertThat(drawn).as("pixels not of the background colour").isGreaterThan(pixels / 20);
        assertThat(bandPixels).as("pixels of the yellow of the groups' bands").isGreaterThan(3L * 100 * 20);
    }

    /** The page's colour {@code expected}, give or take the colour management of the screenshot. */
    private static boolean near(int rgb, int expected) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs((rgb >> shift & 0xFF) - (expected >> shift & 0xFF)) > 4) {
                return false;
            }
        }
        return true;
    }

    private interface PageReader<T> {
        T read(String base) throws Exception;
    }

    /**
     * Starts three groups through the launcher with {@code --ui 0} (B works 1 ms per item, so the run
     * lasts), waits until every group has reported, reads the page, and stops the run.
     */
    private <T> T whileARunGoesOn(PageReader<T> reader) throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "120s", "--grace", "1s", "--ui", "0"),
                Launcher.sumApp("1000000", "-1", "1000"));
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
        try {
            String base = awaitBase(err, run);
            awaitEveryGroup(base, run, err);
            return reader.read(base);
        } finally {
            Launcher.killAll(Launcher.pidsIn(err.toString()));
            run.get(60, TimeUnit.SECONDS);
            Launcher.killAll(Launcher.pidsIn(err.toString()));
        }
    }

    private static String awaitBase(StringWriter err, CompletableFuture<Integer> run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !run.isDone()) {
            Matcher m = METRICS_URL.matcher(err.toString());
            if (m.find()) {
                return m.group(1);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new AssertionError("the launcher printed no address:\n" + err);
    }

    /** Until /api/stats shows B's square and every group's links moving, and the graph is known. */
    private static void awaitEveryGroup(String base, CompletableFuture<Integer> run, StringWriter err)
            throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String stats = "";
        String graph = "";
        while (System.nanoTime() < deadline && !run.isDone()) {
            String now = body(http, base + "/api/stats");
            stats = now;
            graph = body(http, base + "/api/graph");
            if (now.matches("(?s).*\"name\":\"square\",\"group\":\"B\",\"atMillis\":\\d+,\"itemsIn\":[1-9].*")
                    && LINK_GROUPS.stream()
                            .allMatch(g ->
                                    now.matches("(?s).*\"group\":\"" + g + "\",\"atMillis\":\\d+,\"messages\":[1-9].*"))
                    && graph.contains("\"name\":\"square\"")) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new AssertionError("not every group reported:\n" + stats + "\n" + graph + "\nlauncher:\n" + err);
    }

    private static String body(HttpClient http, String url) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static double number(String dom, String regex) {
        Matcher m = Pattern.compile(regex).matcher(dom);
        assertThat(m.find()).as("%s in the page: %s", regex, dom).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
