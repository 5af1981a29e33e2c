package org.fastflowj.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The groups a program answered {@code run}'s check with ({@link ProgramGroups}), kept in the
 * {@link LauncherCache} so that the next run of the same command skips the check's JVM (a whole start of
 * the program, as long as a group's) and starts its groups at once. Kept only for a {@code java} command
 * whose class path is made of jars, and only until one of them changes: a directory of classes may change
 * without a trace, so such a command is asked every time. The key is the whole command line, so other
 * arguments are another answer.
 *
 * <p>Threading: used by the planning thread only.
 */
final class GroupCheckCache {
    private final Path file;
    private final List<Path> jars;

    private GroupCheckCache(Path file, List<Path> jars) {
        this.file = file;
        this.jars = jars;
    }

    /** The cache of {@code command}'s answer, or empty when it cannot be kept. */
    static Optional<GroupCheckCache> of(List<String> command) {
        Optional<List<Path>> jars = CdsArchive.jarsOf(command);
        if (jars.isEmpty()) {
            return Optional.empty();
        }
        List<String> key = new ArrayList<>();
        key.add(LauncherCache.describeExecutable(command.get(0)));
        key.addAll(command.subList(1, command.size()));
        for (Path jar : jars.get()) {
            key.add(jar.toAbsolutePath().normalize().toString());
        }
        return LauncherCache.directory()
                .map(dir -> new GroupCheckCache(dir.resolve("groups-" + LauncherCache.key(key) + ".txt"), jars.get()));
    }

    /** The groups the program answered last, unless a jar changed since (or none was kept). */
    Optional<List<String>> groups() {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            FileTime kept = Files.getLastModifiedTime(file);
            for (Path jar : jars) {
                if (!Files.isRegularFile(jar) || Files.getLastModifiedTime(jar).compareTo(kept) >= 0) {
                    return Optional.empty();
                }
            }
            List<String> groups = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.isBlank())
                    .toList();
            return groups.isEmpty() ? Optional.empty() : Optional.of(groups);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Keeps {@code groups} (written aside, then renamed: a concurrent run reads the old answer or this one). */
    void remember(List<String> groups) {
        Path written = file.resolveSibling(
                file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.write(written, groups, StandardCharsets.UTF_8);
            Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(written);
            } catch (IOException ignored) {
                // the next run asks the program again
            }
        }
    }
}
