package org.fastflowj.examples.filesearch;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A generated directory tree to search, and two independent ways to know the right answer: a plain
 * sequential scan written here, and {@code grep -rnIF | sort} when the machine has them.
 */
final class Corpus {
    static final String WORD = "Hello";

    private Corpus() {}

    /** Creates d1..d4 under {@code root} and returns them, in order, as paths relative or absolute as root is. */
    static List<Path> create(Path root) throws IOException {
        Path d1 = root.resolve("d1");
        Path d2 = root.resolve("d2");
        Path d3 = root.resolve("d3");
        Path d4 = root.resolve("d4");
        write(
                d1.resolve("a.txt"),
                "Hello at start\nmiddle Hello middle\nends with Hello\nno match here\nHello Hello twice\n");
        write(d1.resolve("crlf.txt"), "Hello\r\nnothing\r\nsay Hello\r\n");
        write(d1.resolve("nonl.txt"), "first\nlast Hello");
        write(d1.resolve("empty.txt"), "");
        write(d1.resolve("blank-lines.txt"), "\n\nHello\n\n");
        // names that sort differently by string and by path component: x-y.txt < x.txt < x/inner.txt
        write(d1.resolve("x.txt"), "x Hello\n");
        write(d1.resolve("x-y.txt"), "x-y Hello\n");
        write(d1.resolve("x/inner.txt"), "inner Hello\n");
        write(d1.resolve("sub/deep/deeper/leaf.txt"), "leaf\nHello leaf\n");
        write(d2.resolve("utf8.txt"), "grüße Hello ☃\nhello lowercase\nHell o\n");
        Files.createDirectories(d2);
        Files.write(d2.resolve("binary.bin"), "Hello\0Hello\n".getBytes(ISO_8859_1));
        StringBuilder numbered = new StringBuilder();
        for (int line = 1; line <= 12; line++) {
            numbered.append(line == 2 || line == 9 || line == 10 || line == 11 ? "Hello " + line : "other " + line);
            numbered.append('\n');
        }
        write(d2.resolve("long.txt"), numbered.toString());
        writeRandomFiles(d3, new Random(42));
        Files.createDirectories(d4.resolve("empty-sub"));
        write(d4.resolve("only.txt"), "nothing to see\n");
        try {
            // grep -r does not follow links met while recursing; neither does the Reader
            Files.createSymbolicLink(d4.resolve("link.txt"), Path.of("../d1/a.txt"));
        } catch (UnsupportedOperationException | IOException noLinks) {
            // the rest of the corpus still tests everything else
        }
        return List.of(d1, d2, d3, d4);
    }

    private static void writeRandomFiles(Path dir, Random random) throws IOException {
        String[] words = {"alpha", "Hello", "beta", "xHellox", "Hel", "lo", "gamma", "HELLO", ""};
        String[] subdirs = {"", "p", "p/q", "p/q/r", "s"};
        for (int file = 0; file < 40; file++) {
            StringBuilder text = new StringBuilder();
            int lines = random.nextInt(16);
            for (int line = 0; line < lines; line++) {
                int count = random.nextInt(5);
                for (int i = 0; i < count; i++) {
                    text.append(i == 0 ? "" : " ").append(words[random.nextInt(words.length)]);
                }
                text.append(random.nextInt(8) == 0 ? "\r\n" : "\n");
            }
            String sub = subdirs[random.nextInt(subdirs.length)];
            write(dir.resolve(sub).resolve("f" + file + ".txt"), text.toString());
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, text.getBytes(UTF_8));
    }

    /**
     * The expected output by a plain sequential scan: every regular file (links not followed) without a
     * NUL byte, split at '\n', lines containing the word, as "path:number:line", sorted by path then number.
     */
    static List<String> expectedLines(List<Path> dirs, String word) throws IOException {
        record Hit(String path, int number, String text) {}
        List<Hit> hits = new ArrayList<>();
        for (Path dir : dirs) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(dir)) {
                files = walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                        .toList();
            }
            for (Path file : files) {
                byte[] bytes = Files.readAllBytes(file);
                if (new String(bytes, ISO_8859_1).indexOf('\0') >= 0) {
                    continue;
                }
                List<String> lines = new ArrayList<>(List.of(new String(bytes, UTF_8).split("\n", -1)));
                if (lines.get(lines.size() - 1).isEmpty()) {
                    lines.remove(lines.size() - 1); // text after the last '\n' is a line only if not empty
                }
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains(word)) {
                        hits.add(new Hit(file.toString(), i + 1, lines.get(i)));
                    }
                }
            }
        }
        hits.sort(Comparator.comparing(Hit::path).thenComparingInt(Hit::number));
        return hits.stream()
                .map(h -> h.path() + ":" + h.number() + ":" + h.text())
                .toList();
    }

    /** Whether {@code sh}, {@code grep} and {@code sort} can be run here. */
    static boolean hasGrepAndSort() {
        try {
            Process check = new ProcessBuilder("sh", "-c", "command -v grep && command -v sort")
                    .redirectErrorStream(true)
                    .start();
            check.getInputStream().readAllBytes();
            return check.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code grep -rnIF WORD DIR... | sort -t: -k1,1 -k2,2n} in the C locale, run from the JVM's directory. */
    static List<String> grepSorted(List<Path> dirs, String word) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of("sh", "-c", "grep -rnIF -e \"$0\" -- \"$@\" | sort -t: -k1,1 -k2,2n", word));
        dirs.forEach(dir -> command.add(dir.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("LC_ALL", "C");
        Process process = builder.start();
        byte[] out;
        try (InputStream in = process.getInputStream()) {
            out = in.readAllBytes();
        }
        process.waitFor();
        return lines(out);
    }

    /** The lines of a program's output (UTF-8, each ended by '\n'). */
    static List<String> lines(byte[] output) {
        String text = new String(output, UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        if (!text.endsWith("\n")) {
            throw new AssertionError("output does not end with a newline: " + text);
        }
        return List.of(text.substring(0, text.length() - 1).split("\n", -1));
    }

    static List<String> lines(ByteArrayOutputStream output) {
        return lines(output.toByteArray());
    }

    /** Deletes a tree (links themselves, never their targets). */
    static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
