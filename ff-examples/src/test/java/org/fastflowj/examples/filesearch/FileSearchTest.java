package org.fastflowj.examples.filesearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileSearchTest {
    /** The two compositions of the paper's Fig. 2. */
    enum Version {
        PIPELINE {
            @Override
            Pipeline build(List<Path> dirs, String word, OutputStream out) {
                return FileSearch.pipeline(dirs, word, out);
            }
        },
        ALL_TO_ALL {
            @Override
            Pipeline build(List<Path> dirs, String word, OutputStream out) {
                return FileSearch.allToAll(dirs, word, out);
            }
        };

        abstract Pipeline build(List<Path> dirs, String word, OutputStream out);

        List<String> run(List<Path> dirs, String word, RunOptions options) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            build(dirs, word, out).runAndWaitEnd(options);
            return Corpus.lines(out);
        }

        List<String> run(List<Path> dirs, String word) {
            return run(dirs, word, RunOptions.defaults());
        }
    }

    /** Relative to the JVM's working directory, so printed paths are relative "as given", as with grep. */
    private static Path root;

    private static List<Path> dirs;

    @BeforeAll
    static void createCorpus() throws IOException {
        Files.createDirectories(Path.of("target"));
        root = Files.createTempDirectory(Path.of("target"), "filesearch-");
        dirs = Corpus.create(root);
    }

    @AfterAll
    static void deleteCorpus() throws IOException {
        Corpus.delete(root);
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldPrintExactlyTheLinesASequentialScanFinds(Version version) throws IOException {
        List<String> expected = Corpus.expectedLines(dirs, Corpus.WORD);

        List<String> actual = version.run(dirs, Corpus.WORD);

        assertThat(actual).containsExactlyElementsOf(expected);
        String d1 = root.resolve("d1").toString();
        String d2 = root.resolve("d2").toString();
        // the corpus really exercises the cases it was built for
        assertThat(actual)
                .contains(
                        d1 + "/a.txt:1:Hello at start",
                        d1 + "/a.txt:3:ends with Hello",
                        d1 + "/a.txt:5:Hello Hello twice",
                        d1 + "/crlf.txt:3:say Hello\r",
                        d1 + "/nonl.txt:2:last Hello",
                        d1 + "/blank-lines.txt:3:Hello",
                        d1 + "/sub/deep/deeper/leaf.txt:2:Hello leaf",
                        d2 + "/utf8.txt:1:grüße Hello ☃");
        assertThat(actual)
                .filteredOn(line -> line.startsWith(d2 + "/long.txt:"))
                .containsExactly(
                        d2 + "/long.txt:2:Hello 2", d2 + "/long.txt:9:Hello 9",
                        d2 + "/long.txt:10:Hello 10", d2 + "/long.txt:11:Hello 11");
        assertThat(actual)
                .filteredOn(line -> line.startsWith(d1 + "/x"))
                .containsExactly(
                        d1 + "/x-y.txt:1:x-y Hello", d1 + "/x.txt:1:x Hello", d1 + "/x/inner.txt:1:inner Hello");
        assertThat(actual).noneMatch(line -> line.contains("binary.bin") || line.contains("link.txt"));
        assertThat(actual).anyMatch(line -> line.startsWith(root.resolve("d3").toString()));
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldPrintWhatSortedGrepPrints(Version version) throws Exception {
        assumeTrue(Corpus.hasGrepAndSort(), "grep or sort not available: comparison skipped");
        List<String> grep = Corpus.grepSorted(dirs, Corpus.WORD);

        List<String> actual = version.run(dirs, Corpus.WORD);

        assertThat(grep).isNotEmpty();
        assertThat(actual).containsExactlyElementsOf(grep);
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldDeliverEveryMatchWhenChannelsHoldOneItem(Version version) throws IOException {
        RunOptions tiny = RunOptions.defaults().queueCapacity(1).waitStrategy(WaitStrategy.BLOCKING);

        List<String> actual = version.run(dirs, Corpus.WORD, tiny);

        assertThat(actual).containsExactlyElementsOf(Corpus.expectedLines(dirs, Corpus.WORD));
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldPrintNothingWhenNoLineMatches(Version version) {
        assertThat(version.run(dirs, "no-such-word-anywhere")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldSearchASingleDirectoryEvenWhenTheSecondReaderHasNone(Version version) throws IOException {
        List<Path> one = List.of(dirs.get(0));

        List<String> actual = version.run(one, Corpus.WORD);

        assertThat(actual).isNotEmpty().containsExactlyElementsOf(Corpus.expectedLines(one, Corpus.WORD));
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldPrintADirectoryGivenTwiceTwiceAsGrepDoes(Version version) throws IOException {
        List<Path> twice = List.of(dirs.get(1), dirs.get(1));
        List<String> once = Corpus.expectedLines(List.of(dirs.get(1)), Corpus.WORD);
        List<String> doubled = new ArrayList<>();
        once.forEach(line -> {
            doubled.add(line);
            doubled.add(line);
        });

        assertThat(version.run(twice, Corpus.WORD)).containsExactlyElementsOf(doubled);
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void shouldPrintNothingForEmptyDirectories(Version version, @TempDir Path empty) throws IOException {
        Files.createDirectories(empty.resolve("a/b"));

        assertThat(version.run(List.of(empty, empty.resolve("a")), Corpus.WORD)).isEmpty();
    }

    @Test
    void shouldSplitTheDirectoriesInTwoHalvesForTheTwoReaders() throws IOException {
        List<Path> four = dirs;
        List<Path> three = dirs.subList(0, 3);

        // every directory is searched exactly once whatever the split
        assertThat(Version.ALL_TO_ALL.run(four, Corpus.WORD))
                .containsExactlyElementsOf(Corpus.expectedLines(four, Corpus.WORD));
        assertThat(Version.ALL_TO_ALL.run(three, Corpus.WORD))
                .containsExactlyElementsOf(Corpus.expectedLines(three, Corpus.WORD));
    }
}
