package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The program's groups kept between runs of one jar command, until a jar changes. */
class GroupCheckCacheTest {
    @TempDir
    Path dir;

    @Test
    void shouldAnswerTheGroupsItKeptUntilAJarOfTheCommandChanges() throws Exception {
        Path jar = Files.writeString(dir.resolve("app.jar"), "not really a jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        // a unique argument: a key no other run of these tests shares
        List<String> command = List.of(
                "java", "-cp", jar.toString(), "app.Main", UUID.randomUUID().toString());

        GroupCheckCache cache = GroupCheckCache.of(command).orElseThrow();
        assertThat(cache.groups()).as("nothing kept yet").isEmpty();
        cache.remember(List.of("G1", "G2"));

        assertThat(GroupCheckCache.of(command).orElseThrow().groups()).contains(List.of("G1", "G2"));
        List<String> otherArguments = List.of("java", "-cp", jar.toString(), "app.Main", "--other");
        assertThat(GroupCheckCache.of(otherArguments).orElseThrow().groups())
                .as("another command line is another answer")
                .isNotEqualTo(java.util.Optional.of(List.of("G1", "G2")));

        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertThat(GroupCheckCache.of(command).orElseThrow().groups())
                .as("the jar was rebuilt")
                .isEmpty();
    }

    @Test
    void shouldKeepNothingForAClassPathWithADirectoryOrACommandThatIsNotJava() {
        assertThat(GroupCheckCache.of(List.of("java", "-cp", dir.toString(), "app.Main")))
                .isEmpty();
        assertThat(GroupCheckCache.of(List.of("python3", "app.py"))).isEmpty();
    }
}
