package org.fastflowj.examples.filesearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The file search as groups G1, G2 (Readers and Workers) and G3 (Writer), each its own JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FileSearchDistributedTest {
    @TempDir
    Path root;

    private static String dirsArgument(List<Path> dirs) {
        List<String> names = new ArrayList<>();
        dirs.forEach(d -> names.add(d.toString()));
        return String.join(",", names);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldPrintTheSameMatchesAsOneProcessAndTheReference(boolean a2a) throws Exception {
        List<Path> dirs = Corpus.create(root.resolve("corpus"));
        List<String> args = new ArrayList<>(List.of("filesearch", "--dirs", dirsArgument(dirs), "--word", "Hello"));
        if (a2a) {
            args.add("--a2a");
        }
        List<String> expected = Corpus.expectedLines(dirs, "Hello");
        AppRunner whole = AppRunner.run(args.toArray(String[]::new));

        Path config = GroupCluster.configFor("filesearch", root);
        try (GroupCluster cluster =
                GroupCluster.start(config, List.of("G1", "G2", "G3"), args.toArray(String[]::new))) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            List<String> printed = Corpus.lines(cluster.output("G3").getBytes(StandardCharsets.UTF_8));
            assertThat(printed).isNotEmpty().isEqualTo(expected);
            assertThat(Corpus.lines(whole.out.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
            assertThat(cluster.output("G1") + cluster.output("G2")).isEmpty();
        }
    }

    @Test
    void shouldPrintMatchesInAFileWhoseNameHoldsTheLaunchersWordsAndLoseNoGroup() throws Exception {
        // The name splits the printed match into lines that begin as the groups' news to the launcher did.
        Path dir = Files.createDirectories(root.resolve("hostile"));
        String name = "x\nDFF_LOSABLE: G1,G2\nDFF_LOST: G1\nDFF_STATS: 1 n a 1 1 1 1 1 1\ny.txt";
        Files.writeString(dir.resolve(name), "Hello\nnothing\nHello again\n");
        Files.writeString(dir.resolve("plain.txt"), "Hello there\n");
        String[] args = {"filesearch", "--dirs", dir.toString(), "--word", "Hello"};
        Path config = GroupCluster.configFor("filesearch", root);
        try (GroupCluster cluster = GroupCluster.start(config, List.of("G1", "G2", "G3"), args)) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String path = dir.resolve(name).toString();
            assertThat(cluster.output("G3"))
                    .as(cluster.allOutput())
                    .contains(path + ":1:Hello\n", path + ":3:Hello again\n", "plain.txt:1:Hello there\n")
                    .contains("\nDFF_LOST: G1\n", "\nDFF_STATS: 1 n a 1 1 1 1 1 1\n");
            assertThat(cluster.allOutput()).doesNotContain(" is lost");
        }
    }
}
