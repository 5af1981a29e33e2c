package org.fastflowj.core.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.metrics.RunMetrics;
import org.fastflowj.testing.HeadlessChromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page of one group of a distributed program, in a real browser: the page of group G1's process
 * draws both groups, G2's thread as running elsewhere, and G1's network link with its rates. The
 * counters are those a G1 process would show (its node, its sender thread, its link), growing with time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GroupPageInChromiumTest {
    @TempDir
    Path workDir;

    /** Counters of G1's process that grow by one per elapsed millisecond, as a live run's would. */
    private static Supplier<RunStats> groupOneCounters() {
        long start = System.nanoTime();
        return () -> {
            long n = (System.nanoTime() - start) / 1_000_000;
            return new RunStats(
                    List.of(
                            new NodeStats("numbers", 0, n, n, 0, 0, -1),
                            new NodeStats("ff-send-G2", n, 0, n, 0, 0, -1)),
                    List.of(new LinkStats("G1 -> G2", n, 40 * n, n / 8, 0)));
        };
    }

    @Test
    void shouldDrawBothGroupsAndTheLinkOfThisProcess() throws Exception {
        Optional<HeadlessChromium> chromium = HeadlessChromium.find(workDir);
        assumeTrue(
                chromium.isPresent(),
                "no chromium or chromium-browser on the PATH: the live page's browser test needs Debian's chromium"
                        + " package (apt-get install chromium)");
        Node<Void, Integer> source = Node.source(List.of(1)).named("numbers");
        Node<Integer, Void> sink = Node.<Integer>sink(x -> {}).named("sums");
        Pipeline program = new Pipeline(source, sink);
        source.createGroup("G1");
        sink.createGroup("G2");
        CountDownLatch runEnds = new CountDownLatch(1);
        RunMetrics metrics = RunMetrics.open(false, 0);
        String dom;
        try {
            metrics.show(GraphCompiler.compile(program), groupOneCounters(), () -> {
                try {
                    runEnds.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            dom = chromium.orElseThrow().dumpDom("http://127.0.0.1:" + metrics.port() + "/", 3000);
        } finally {
            runEnds.countDown();
            metrics.close();
        }

        assertThat(dom).contains(">group G1</text>", ">group G2</text>");
        assertThat(box(dom, "numbers")).contains("in 0.0/s");
        assertThat(box(dom, "sums")).contains("runs in another process");
        assertThat(dom)
                .as("the sender thread is of this process's group")
                .contains("<tr data-node=\"ff-send-G2\"><td class=\"name\">ff-send-G2</td><td class=\"group\">G1</td>");
        Matcher link = Pattern.compile(
                        "<tr data-link=\"G1 -&gt; G2\" data-from=\"G1\" data-to=\"G2\">.*?class=\"message-rate\""
                                + " data-value=\"([-0-9.eE]+)\"")
                .matcher(dom);
        assertThat(link.find())
                .as("the link's row with a measured rate: %s", dom)
                .isTrue();
        assertThat(Double.parseDouble(link.group(1))).as("messages per second").isPositive();
    }

    private static String box(String dom, String vertex) {
        Matcher box = Pattern.compile("<g data-vertex=\"" + Pattern.quote(vertex) + "\">(.*?)</g>")
                .matcher(dom);
        assertThat(box.find()).as("the box of %s", vertex).isTrue();
        return box.group(1);
    }
}
