package org.fastflowj.examples.filesearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fastflowj.core.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Searches one file for a word and sends out its matching lines, or nothing ({@code goOn()}) when no line
 * matches. Matching works on bytes, as {@code grep -F} in the C locale: lines end at {@code \n} (a
 * {@code \r} before it stays part of the line), the last line needs no {@code \n}, and a line matches when
 * it contains the word's bytes in the platform charset. A file containing a NUL byte is binary and
 * skipped ({@code grep -I}); a file that cannot be read is reported on stderr and skipped.
 *
 * <p>The whole file is read into memory, so files must be under 2 GiB.
 *
 * <p>Threading: one node thread; the Worker keeps no state between files.
 */
public final class Worker extends Node<Path, FileMatches> {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final byte[] word;

    public Worker(String word) {
        this.word = word.getBytes(FileSearch.nativeCharset());
    }

    @Override
    protected FileMatches svc(Path file) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            LOG.warn("skipping {}: {}", file, e.toString());
            return goOn();
        }
        if (isBinary(content)) {
            return goOn();
        }
        List<MatchedLine> lines = matchingLines(content, word);
        return lines.isEmpty() ? goOn() : new FileMatches(file, lines);
    }

    /** Whether the content holds a NUL byte, grep's sign of a binary file. */
    static boolean isBinary(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return true;
            }
        }
        return false;
    }

    /** The lines of {@code content} (numbered from 1) that contain {@code word}, in order. */
    static List<MatchedLine> matchingLines(byte[] content, byte[] word) {
        List<MatchedLine> lines = new ArrayList<>();
        long number = 1;
        int start = 0;
        while (start < content.length) {
            int end = indexOf(content, (byte) '\n', start);
            if (contains(content, start, end, word)) {
                lines.add(new MatchedLine(number, Arrays.copyOfRange(content, start, end)));
            }
            start = end + 1;
            number++;
        }
        return lines;
    }

    private static int indexOf(byte[] content, byte value, int from) {
        for (int i = from; i < content.length; i++) {
            if (content[i] == value) {
                return i;
            }
        }
        return content.length;
    }

    private static boolean contains(byte[] content, int start, int end, byte[] word) {
        for (int i = start; i <= end - word.length; i++) {
            if (regionMatches(content, i, word)) {
                return true;
            }
        }
        return word.length == 0;
    }

    private static boolean regionMatches(byte[] content, int offset, byte[] word) {
        for (int j = 0; j < word.length; j++) {
            if (content[offset + j] != word[j]) {
                return false;
            }
        }
        return true;
    }
}
