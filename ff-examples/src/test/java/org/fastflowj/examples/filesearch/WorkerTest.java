package org.fastflowj.examples.filesearch;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerTest {
    private static final byte[] HELLO = "Hello".getBytes(UTF_8);

    private static List<String> matches(String content) {
        return Worker.matchingLines(content.getBytes(ISO_8859_1), HELLO).stream()
                .map(line -> line.number() + ":" + new String(line.bytes(), ISO_8859_1))
                .toList();
    }

    @Test
    void shouldNumberLinesFromOneAndMatchAtStartMiddleAndEnd() {
        assertThat(matches("Hello a\nnone\nb Hello c\nd Hello\n"))
                .containsExactly("1:Hello a", "3:b Hello c", "4:d Hello");
    }

    @Test
    void shouldPrintALineOnceWhateverTheNumberOfOccurrences() {
        assertThat(matches("HelloHello Hello\n")).containsExactly("1:HelloHello Hello");
    }

    @Test
    void shouldKeepTheCarriageReturnOfCrlfLinesAsGrepDoes() {
        assertThat(matches("Hello\r\nx\r\nsay Hello\r\n")).containsExactly("1:Hello\r", "3:say Hello\r");
    }

    @Test
    void shouldCountTheLastLineWithoutNewlineButNoEmptyLineAfterAFinalNewline() {
        assertThat(matches("a\nlast Hello")).containsExactly("2:last Hello");
        assertThat(Worker.matchingLines("a\n\n".getBytes(ISO_8859_1), new byte[0]))
                .extracting(MatchedLine::number)
                .containsExactly(1L, 2L);
    }

    @Test
    void shouldFindNothingInAnEmptyFileOrAcrossLines() {
        assertThat(matches("")).isEmpty();
        assertThat(matches("Hel\nlo\n")).isEmpty();
        assertThat(matches("hello HELLO\n")).isEmpty();
    }

    @Test
    void shouldTreatAFileWithANulByteAsBinary() {
        assertThat(Worker.isBinary("Hello\0".getBytes(ISO_8859_1))).isTrue();
        assertThat(Worker.isBinary("Hello\n\u00ff\u0001".getBytes(ISO_8859_1))).isFalse();
    }

    @Test
    void shouldSkipBinaryUnreadableAndMatchlessFilesAndKeepTheRawBytesOfMatches(@TempDir Path dir) throws IOException {
        Worker worker = new Worker("Hello");
        Path binary = Files.write(dir.resolve("bin"), "Hello\0\n".getBytes(ISO_8859_1));
        Path none = Files.write(dir.resolve("none"), "nothing\n".getBytes(ISO_8859_1));
        byte[] latin1 = "caf\u00e9 Hello\n".getBytes(ISO_8859_1); // not valid UTF-8: printed as is
        Path text = Files.write(dir.resolve("text"), latin1);

        assertThat(worker.svc(binary)).isNull(); // goOn()
        assertThat(worker.svc(none)).isNull();
        assertThat(worker.svc(dir.resolve("missing"))).isNull();
        FileMatches found = worker.svc(text);
        assertThat(found.file()).isEqualTo(text);
        assertThat(found.lines()).containsExactly(new MatchedLine(1, "caf\u00e9 Hello".getBytes(ISO_8859_1)));
    }
}
