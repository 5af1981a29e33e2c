package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.apps.PrintGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --cds FILE}: the first run writes the archive, the next ones map it. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CdsArchiveTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheArchiveInTheFirstRunAndMapItInEveryGroupOfTheNext() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path archive = dir.resolve("app.jsa");
        List<String> command = printGroupCommand();
        List<String> options = List.of(
                "run", "-c", config.toString(), "--cds", archive.toString(), "--no-group-check", "--timeout", "60s");

        Launcher.Result plan = dryRun(config, archive, command);
        // written aside, moved into place once the run succeeded
        assertThat(lineOf(plan, "A")).containsPattern("-XX:ArchiveClassesAtExit=" + archive + "\\.[0-9a-f]{16}\\.tmp ");
        assertThat(lineOf(plan, "B")).doesNotContain("-XX:ArchiveClassesAtExit", "-XX:SharedArchiveFile");
        Launcher.Result first = Launcher.run(Launcher.args(options, command));
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(archive).isRegularFile();
        try (var left = Files.list(dir)) {
            assertThat(left.map(Path::toString)).as("no temporary archive left").noneMatch(f -> f.endsWith(".tmp"));
        }

        Launcher.Result next = dryRun(config, archive, command);
        for (String group : List.of("A", "B", "C")) {
            assertThat(lineOf(next, group)).contains("-XX:SharedArchiveFile=" + archive);
        }
        Launcher.Result second = Launcher.run(Launcher.args(options, command));
        assertThat(second.code()).as(second.toString()).isZero();
        assertThat(second.out()).contains("[C] group with --DFF_GName=C");
        assertThat(first.toString() + second).doesNotContain("[warning]", "Unable to use shared archive");

        // a rebuilt jar makes the archive stale: it is written again, not mapped with a warning
        Files.setLastModifiedTime(
                Path.of(command.get(5)),
                java.nio.file.attribute.FileTime.fromMillis(
                        Files.getLastModifiedTime(archive).toMillis() + 1_000));
        assertThat(lineOf(dryRun(config, archive, command), "A")).contains("-XX:ArchiveClassesAtExit=" + archive);
    }

    @Test
    void shouldKeepAnArchiveOfItsOwnForAJarCommandUnlessToldNotTo() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> command = printGroupCommand();

        Launcher.Result plan =
                Launcher.run(Launcher.args(List.of("run", "-c", config.toString(), "--dry-run"), command));
        Launcher.Result none =
                Launcher.run(Launcher.args(List.of("run", "-c", config.toString(), "--dry-run", "--no-cds"), command));
        Launcher.Result both = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--dry-run", "--no-cds", "--cds", "x.jsa"), command));

        Path cache = Path.of(System.getProperty("java.io.tmpdir"), "fastflowj-" + System.getProperty("user.name"));
        assertThat(lineOf(plan, "A"))
                .containsPattern("-XX:ArchiveClassesAtExit=" + cache + "/cds-[0-9a-f]{24}\\.jsa\\.");
        assertThat(plan.err())
                .as("an archive nobody asked for is not explained")
                .doesNotContain("--cds");
        assertThat(none.out()).doesNotContain("-XX:ArchiveClassesAtExit", "-XX:SharedArchiveFile");
        assertThat(both.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(both.err()).contains("--cds and --no-cds exclude each other");
        assertThat(Launcher.run(Launcher.args(
                                List.of("run", "-c", config.toString(), "--dry-run"), Launcher.sumApp("10")))
                        .out())
                .as("a class path with a directory: no archive, silently")
                .doesNotContain("-XX:ArchiveClassesAtExit", "-XX:SharedArchiveFile");
    }

    @Test
    void shouldSayWhyTheGroupsRunWithoutTheArchiveWhenTheClassPathHasADirectory() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path archive = dir.resolve("app.jsa");

        Launcher.Result plan = dryRun(config, archive, Launcher.sumApp("10"));

        assertThat(plan.code()).isZero();
        assertThat(plan.err())
                .contains("ff-launcher: --cds: the groups run without the archive: CDS archives"
                        + " classes from jars only, and the class path has ");
        assertThat(plan.out()).doesNotContain("-XX:ArchiveClassesAtExit", "-XX:SharedArchiveFile");
    }

    private static Launcher.Result dryRun(Path config, Path archive, List<String> command) {
        return Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--cds", archive.toString(), "--dry-run"), command));
    }

    private static String lineOf(Launcher.Result plan, String group) {
        return plan.out()
                .lines()
                .filter(l -> l.startsWith(group + ": "))
                .findFirst()
                .orElseThrow();
    }

    /** A java command on a one-class jar: the JVM archives classes from jars only. */
    private List<String> printGroupCommand() throws IOException {
        Path jar = dir.resolve("print-group.jar");
        String entry = PrintGroup.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file);
                InputStream in = PrintGroup.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        List<String> command = new ArrayList<>(Launcher.javaCommand().subList(0, 4));
        command.addAll(List.of("-cp", jar.toString(), PrintGroup.class.getName()));
        return command;
    }
}
