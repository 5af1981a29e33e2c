package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.source;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The DOT picture: parsed for its structure, and rendered by Graphviz where {@code dot} is installed. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ToDotTest {
    private static final Pattern NODE = Pattern.compile("^\\s*\"(ff-[^\"]+)\" \\[label=", Pattern.MULTILINE);
    private static final Pattern EDGE =
            Pattern.compile("^\\s*\"[^\"]+\" -> \"[^\"]+\" \\[class=\"(\\w+)\"", Pattern.MULTILINE);
    private static final Pattern CLUSTER = Pattern.compile("subgraph \"(cluster_[^\"]+)\"");

    @TempDir
    Path dir;

    private static long count(Pattern pattern, String dot) {
        return pattern.matcher(dot).results().count();
    }

    private static long edges(String dot, String kind) {
        Matcher m = EDGE.matcher(dot);
        long n = 0;
        while (m.find()) {
            if (m.group(1).equals(kind)) {
                n++;
            }
        }
        return n;
    }

    private static List<String> clusters(String dot) {
        return CLUSTER.matcher(dot).results().map(r -> r.group(1)).toList();
    }

    private static Node<Integer, Integer> step() {
        return Node.of((Integer x) -> x + 1);
    }

    @Test
    void anOrderedFarmShowsEveryThreadItsOrderChannelAndItsCluster() {
        Pipeline program = new Pipeline(source(3), Farm.of(3, ToDotTest::step).ordered(), new Sink<Integer>());
        String dot = program.toDot();

        // source, emitter, 3 workers, default collector, sink
        assertThat(count(NODE, dot)).isEqualTo(7);
        assertThat(edges(dot, "forward")).isEqualTo(1 + 3 + 3 + 1);
        assertThat(edges(dot, "order")).isEqualTo(1);
        assertThat(clusters(dot)).containsExactly("cluster_farm1");
        assertThat(dot).contains("default collector");
    }

    @Test
    void theOptimizedPictureListsWhatWasFusedIntoEachThread() {
        Pipeline program = new Pipeline(
                source(3), Node.of((Integer x) -> x * 2), Node.of((Integer x) -> x - 1), new Sink<Integer>());
        String dot =
                program.toDot(RunOptions.defaults().optimize(OptLevel.LEVEL1).maxThreads(2));

        assertThat(count(NODE, dot)).isEqualTo(2);
        assertThat(edges(dot, "forward")).isEqualTo(1);
        assertThat(count(Pattern.compile("class=\"fused\""), dot)).isEqualTo(2);
        assertThat(dot).contains("2 threads, optimize LEVEL1, wait BACKOFF");
    }

    @Test
    void feedbackOnDemandAllToAllAndGroupsAreDrawnByKind() {
        AllToAll a2a = new AllToAll()
                .firstSet(step(), step())
                .secondSet(step(), step(), step())
                .onDemand();
        Pipeline program = new Pipeline(source(3), a2a, new Sink<Integer>());
        program.createGroup("G1").include(program.stages().get(0));
        program.createGroup("G2").include(a2a);
        program.createGroup("G3").include(program.stages().get(2));
        String dot = program.toDot();

        assertThat(count(NODE, dot)).isEqualTo(1 + 2 + 3 + 1);
        assertThat(edges(dot, "ondemand")).isEqualTo(2 * 3);
        assertThat(clusters(dot))
                .containsExactly("cluster_group_G1", "cluster_group_G2", "cluster_G2_a2a1", "cluster_group_G3");
    }

    @Test
    void aFarmWithFeedbackDrawsItsFeedbackChannels() {
        Node<Integer, Integer> master = Node.of((Integer x) -> x);
        Farm farm = Farm.of(2, ToDotTest::step).emitter(master).wrapAround();
        String dot = farm.toDot();
        assertThat(edges(dot, "feedback")).isEqualTo(2);
        assertThat(count(NODE, dot)).isEqualTo(3);
    }

    @Test
    void graphvizRendersThePictures() throws Exception {
        Assumptions.assumeTrue(onPath("dot"), "Graphviz dot is not installed");
        Pipeline program = new Pipeline(
                source(3),
                Farm.of(2, ToDotTest::step).ordered(),
                Farm.of(2, ToDotTest::step).onDemand(),
                new Sink<Integer>());
        for (OptLevel level : OptLevel.values()) {
            Path in = dir.resolve(level + ".dot");
            Files.writeString(
                    in, program.toDot(RunOptions.defaults().optimize(level).maxThreads(3)));
            Path svg = dir.resolve(level + ".svg");
            Process dot = new ProcessBuilder("dot", "-Tsvg", "-o", svg.toString(), in.toString())
                    .redirectErrorStream(true)
                    .start();
            try {
                assertThat(dot.waitFor(20, TimeUnit.SECONDS)).as("dot ends").isTrue();
                String messages = new String(dot.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(dot.exitValue())
                        .as("dot exit code, output: %s", messages)
                        .isZero();
                assertThat(messages).as("dot warnings").isEmpty();
                assertThat(Files.readString(svg)).contains("<svg").contains("<title>cluster_farm1</title>");
            } finally {
                dot.destroyForcibly();
            }
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
