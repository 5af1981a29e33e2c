package org.fastflowj.examples.filesearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.Main;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileSearchCommandTest {
    @TempDir
    Path root;

    private List<Path> dirs;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void createCorpus() throws IOException {
        DFF.reset(); // every run registers the item serializers again
        dirs = Corpus.create(root);
    }

    private int execute(String... args) {
        CommandLine commandLine = Main.commandLine(out);
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setOut(new PrintWriter(new StringWriter(), true)); // picocli's own messages (help)
        return commandLine.execute(args);
    }

    private String dirsArgument(List<Path> paths) {
        List<String> names = new ArrayList<>();
        paths.forEach(path -> names.add(path.toString()));
        return String.join(",", names);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldPrintOnlyTheSortedMatchesAndExitZero(boolean a2a) throws IOException {
        List<String> args = new ArrayList<>(List.of("filesearch", "--dirs", dirsArgument(dirs), "--word", "Hello"));
        if (a2a) {
            args.add("--a2a");
        }

        int exitCode = execute(args.toArray(String[]::new));

        assertThat(exitCode).isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(Corpus.lines(out)).isNotEmpty().containsExactlyElementsOf(Corpus.expectedLines(dirs, "Hello"));
    }

    @Test
    void shouldExitZeroWithEmptyOutputWhenNothingMatches() {
        int exitCode = execute("filesearch", "--dirs", dirsArgument(dirs), "--word", "absent-word", "--a2a");

        assertThat(exitCode).isZero();
        assertThat(out.toByteArray()).isEmpty();
    }

    @Test
    void shouldNameAMissingDirectoryAndExitTwo() {
        String missing = root.resolve("no-such-dir").toString();

        int exitCode = execute("filesearch", "--dirs", dirs.get(0) + "," + missing, "--word", "Hello");

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).contains("directory not found: " + missing);
        assertThat(out.toByteArray()).isEmpty();
    }

    @Test
    void shouldRejectAFileGivenAsDirectoryAndAnEmptyName() throws IOException {
        Path file = Files.writeString(root.resolve("plain.txt"), "Hello\n");

        assertThat(execute("filesearch", "--dirs", file.toString(), "--word", "Hello"))
                .isEqualTo(2);
        assertThat(execute("filesearch", "--dirs", dirs.get(0) + ",," + dirs.get(1), "--word", "Hello", "--a2a"))
                .isEqualTo(2);

        assertThat(err.toString())
                .contains("--dirs: " + file + " is a file; expected a directory")
                .contains("empty directory name");
        assertThat(out.toByteArray()).isEmpty();
    }

    @Test
    void shouldRefuseAnEmptyWord() {
        assertThat(execute("filesearch", "--dirs", dirs.get(0).toString(), "--word", ""))
                .isEqualTo(2);

        assertThat(err.toString()).contains("--word must not be empty");
        assertThat(out.toByteArray()).isEmpty();
    }

    @Test
    void shouldExitTwoWithoutSubcommandOrRequiredOptions() {
        assertThat(execute()).isEqualTo(2);
        assertThat(execute("filesearch", "--word", "Hello")).isEqualTo(2);

        assertThat(err.toString()).contains("Missing required subcommand").contains("--dirs");
        assertThat(out.toByteArray()).isEmpty();
    }

    @Test
    void shouldPrintItsGroupsAndRunNothingWhenAskedOnlyItsGroups() throws IOException {
        java.io.PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        int[] exitCode = new int[1];
        try {
            DFF.Settings.fromArgs(DFF.PRINT_GROUPS_OPTION)
                    .run(() -> exitCode[0] = execute("filesearch", "--dirs", dirsArgument(dirs), "--word", "Hello"));
        } finally {
            System.setOut(original);
        }

        assertThat(exitCode[0]).isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("DFF_GROUPS: G1,G2,G3" + System.lineSeparator());
        assertThat(out.toByteArray()).as("no match printed: nothing ran").isEmpty();
    }
}
