package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The program's groups kept between runs of one jar command, until a jar changes. */
class GroupCheckCacheTest {
    @TempDir
    Path dir;

    private LauncherCache cache;

    @BeforeEach
    void newCache() {
        cache = new LauncherCache(
                dir.resolve("cache"), System.getProperty("user.name"), new PrintWriter(new StringWriter(), true));
    }

    @Test
    void shouldAnswerTheGroupsItKeptUntilAJarOfTheCommandOrTheConfigChanges() throws Exception {
        Path jar = Files.writeString(dir.resolve("app.jar"), "not really a jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Path config = Files.writeString(dir.resolve("app.json"), "{}");
        Files.setLastModifiedTime(config, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        // a unique argument: a key no other run of these tests shares
        List<String> command = List.of(
                "java", "-cp", jar.toString(), "app.Main", UUID.randomUUID().toString());

        GroupCheckCache kept = GroupCheckCache.of(command, config, cache).orElseThrow();
        assertThat(kept.groups()).as("nothing kept yet").isEmpty();
        kept.remember(List.of("G1", "G2"));

        assertThat(GroupCheckCache.of(command, config, cache).orElseThrow().groups())
                .contains(List.of("G1", "G2"));
        List<String> otherArguments = List.of("java", "-cp", jar.toString(), "app.Main", "--other");
        assertThat(GroupCheckCache.of(otherArguments, config, cache)
                        .orElseThrow()
                        .groups())
                .as("another command line is another answer")
                .isNotEqualTo(java.util.Optional.of(List.of("G1", "G2")));
        assertThat(GroupCheckCache.of(command, dir.resolve("other.json"), cache)
                        .orElseThrow()
                        .groups())
                .as("another config is another answer")
                .isEmpty();

        Files.setLastModifiedTime(config, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertThat(GroupCheckCache.of(command, config, cache).orElseThrow().groups())
                .as("the config was edited: the program may take its groups from it")
                .isEmpty();
        Files.setLastModifiedTime(config, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        kept.remember(List.of("G1", "G2"));
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertThat(GroupCheckCache.of(command, config, cache).orElseThrow().groups())
                .as("the jar was rebuilt")
                .isEmpty();
    }

    @Test
    void shouldKeepNothingForAClassPathWithADirectoryOrACommandThatIsNotJava() {
        Path config = dir.resolve("app.json");
        assertThat(GroupCheckCache.of(List.of("java", "-cp", dir.toString(), "app.Main"), config, cache))
                .isEmpty();
        assertThat(GroupCheckCache.of(List.of("python3", "app.py"), config, cache))
                .isEmpty();
    }
}
