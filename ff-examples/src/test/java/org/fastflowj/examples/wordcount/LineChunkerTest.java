package org.fastflowj.examples.wordcount;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LineChunkerTest {

    /** The lines of every chunk, each chunk's line count checked against its text. */
    private static List<String> lines(LineChunker chunker) throws IOException {
        List<String> lines = new ArrayList<>();
        for (TextChunk chunk = chunker.next(); chunk != null; chunk = chunker.next()) {
            String text = new String(chunk.utf8(), UTF_8);
            List<String> inChunk = new ArrayList<>(List.of(text.split("\n", -1)));
            if (text.endsWith("\n")) {
                inChunk.remove(inChunk.size() - 1);
            }
            assertThat(chunk.lines()).as("lines of chunk %s", text).isEqualTo(inChunk.size());
            lines.addAll(inChunk);
        }
        return lines;
    }

    private static LineChunker whole(String text, int maxLines) {
        return new LineChunker(new ByteArrayInputStream(text.getBytes(UTF_8)), 0, Long.MAX_VALUE, maxLines, true);
    }

    @Test
    void shouldCutWholeLinesKeepingEmptyOnesAndTheLastWithoutNewline() throws IOException {
        assertThat(lines(whole("a b\n\n  \nlast", Integer.MAX_VALUE))).containsExactly("a b", "", "  ", "last");
        assertThat(lines(whole("", Integer.MAX_VALUE))).isEmpty();
        assertThat(lines(whole("x\n", Integer.MAX_VALUE))).containsExactly("x");
    }

    @Test
    void shouldBoundTheLinesPerChunk() throws IOException {
        LineChunker chunker = whole("1\n2\n3\n4\n5\n", 2);
        List<Integer> sizes = new ArrayList<>();
        for (TextChunk chunk = chunker.next(); chunk != null; chunk = chunker.next()) {
            sizes.add(chunk.lines());
        }
        assertThat(sizes).containsExactly(2, 2, 1);
    }

    @Test
    void shouldKeepALineLongerThanTheBufferWhole() throws IOException {
        String longLine = "w".repeat(3 * LineChunker.CHUNK_BYTES + 7);
        assertThat(lines(whole("short\n" + longLine + "\nafter", Integer.MAX_VALUE)))
                .containsExactly("short", longLine, "after");
    }

    @Test
    void shouldGiveEachLineToExactlyOnePartWhereverThePartsEnd() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("line ").append(i).append(i % 7 == 0 ? "\n\n" : "\n");
        }
        byte[] bytes = text.toString().getBytes(UTF_8);
        List<String> expected = lines(whole(text.toString(), Integer.MAX_VALUE));
        for (int parts : new int[] {1, 2, 3, 7}) {
            List<String> all = new ArrayList<>();
            for (int part = 0; part < parts; part++) {
                long start = (long) bytes.length * part / parts;
                long end = (long) bytes.length * (part + 1) / parts;
                long position = Math.max(0, start - 1);
                InputStream in = new ByteArrayInputStream(bytes, (int) position, bytes.length - (int) position);
                LineChunker chunker = new LineChunker(in, position, end, Integer.MAX_VALUE, true);
                if (start > 0 && !chunker.skipLine()) {
                    continue;
                }
                all.addAll(lines(chunker));
            }
            assertThat(all).as("%d parts", parts).isEqualTo(expected);
        }
    }
}
