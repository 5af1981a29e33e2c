package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fails when a code sample in docs/*.md differs from the tagged region of the source it is taken from:
 * the same check as {@code python3 docs/sync-snippets.py --check}, with the same rules (keep them in step).
 * The guide tests hold the samples, so a sample in the docs is code that compiles and passes.
 */
@Timeout(60)
class DocsSnippetsTest {
    private static final Pattern BLOCK =
            Pattern.compile("(<!-- snippet: ([^#\\s]+)#([\\w.-]+) -->)\\n(.*?)(<!-- /snippet -->)", Pattern.DOTALL);
    private static final Pattern TAG_LINE = Pattern.compile("^\\s*// (tag|end)::([\\w.-]+)\\[\\]\\s*$");

    @Test
    void shouldHaveEveryDocSampleEqualToItsTaggedSource() throws IOException {
        Path root = repositoryRoot();
        assumeThat(root)
                .as("docs/ not found next to ff-core: not run from a full checkout")
                .isNotNull();

        List<Path> docs;
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            docs = files.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .toList();
        }
        List<String> stale = new ArrayList<>();
        int blocks = 0;
        for (Path doc : docs) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            blocks += (int) BLOCK.matcher(text).results().count();
            if (!render(root, text).equals(text)) {
                stale.add(root.relativize(doc).toString());
            }
        }
        assertThat(blocks).as("snippet blocks in docs/*.md").isPositive();
        assertThat(stale)
                .as("docs out of date with their code samples; run: python3 docs/sync-snippets.py")
                .isEmpty();
    }

    @Test
    void shouldCutATaggedRegionDedentedWithoutNestedTagLines() {
        String source = String.join(
                "\n",
                "class A {",
                "    // tag::outer[]",
                "    void f() {",
                "        // tag::inner[]",
                "        g();   ",
                "",
                "        // end::inner[]",
                "    }",
                "    // end::outer[]",
                "}");
        assertThat(cut(source, "outer", "A.java")).isEqualTo("void f() {\n    g();\n\n}");
        assertThat(cut(source, "inner", "A.java")).isEqualTo("g();\n");
    }

    /** The repository root (the directory holding docs/sync-snippets.py), or null if not found. */
    private static Path repositoryRoot() {
        for (Path candidate : List.of(Path.of(".."), Path.of("."))) {
            Path root = candidate.toAbsolutePath().normalize();
            if (Files.isRegularFile(root.resolve("docs").resolve("sync-snippets.py"))) {
                return root;
            }
        }
        return null;
    }

    static String render(Path root, String text) {
        Matcher m = BLOCK.matcher(text);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            out.append(text, last, m.start());
            out.append(m.group(1))
                    .append("\n```java\n")
                    .append(excerpt(root, m.group(2), m.group(3)))
                    .append("\n```\n")
                    .append(m.group(5));
            last = m.end();
        }
        return out.append(text.substring(last)).toString();
    }

    private static String excerpt(Path root, String path, String name) {
        Path source = root.resolve(path);
        assertThat(source).as("snippet source %s", path).isRegularFile();
        try {
            return cut(Files.readString(source, StandardCharsets.UTF_8), name, path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String cut(String source, String name, String path) {
        String[] lines = source.split("\n", -1);
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.length; i++) {
            Matcher m = TAG_LINE.matcher(lines[i]);
            if (m.matches() && m.group(2).equals(name)) {
                if (m.group(1).equals("tag")) {
                    assertThat(start)
                            .as("%s: tag::%s[] appears twice", path, name)
                            .isEqualTo(-1);
                    start = i;
                } else if (start >= 0 && end < 0) {
                    end = i;
                }
            }
        }
        assertThat(start).as("%s: no tag::%s[]", path, name).isNotNegative();
        assertThat(end).as("%s: tag::%s[] has no end::%s[]", path, name, name).isNotNegative();
        List<String> body = new ArrayList<>();
        for (int i = start + 1; i < end; i++) {
            if (!TAG_LINE.matcher(lines[i]).matches()) {
                body.add(lines[i].stripTrailing());
            }
        }
        int cut = Integer.MAX_VALUE;
        for (String line : body) {
            if (!line.isBlank()) {
                int indent = 0;
                while (indent < line.length() && line.charAt(indent) == ' ') {
                    indent++;
                }
                cut = Math.min(cut, indent);
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < body.size(); i++) {
            String line = body.get(i);
            out.append(line.isBlank() ? "" : line.substring(cut));
            if (i + 1 < body.size()) {
                out.append('\n');
            }
        }
        return out.toString();
    }
}
