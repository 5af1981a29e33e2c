package org.fastflowj.launcher.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The groups a program answered {@code run}'s check with ({@code ProgramGroups}), kept in the
 * {@link LauncherCache} so that the next run of the same command skips the check's JVM (a whole start of
 * the program, as long as a group's) and starts its groups at once. Kept only for a {@code java} command
 * whose class path is made of jars, and only until one of them changes: a directory of classes may change
 * without a trace, so such a command is asked every time. The key is the whole command line and the
 * config's path, so other arguments or another config are another answer, and a config changed since is
 * asked again (the program may take its groups from it). The folder is checked before each use ({@link LauncherCache#directory}),
 * and the file is read without following a link and written under a fresh name with {@code CREATE_NEW}.
 *
 * <p>Threading: used by the planning thread only.
 */
public final class GroupCheckCache {
    private final Path file;
    private final List<Path> jars;
    private final LauncherCache cache;

    private GroupCheckCache(Path file, List<Path> jars, LauncherCache cache) {
        this.file = file;
        this.jars = jars;
        this.cache = cache;
    }

    /** The cache of {@code command}'s answer, or empty when it cannot be kept. */
    public static Optional<GroupCheckCache> of(List<String> command, Path config, LauncherCache cache) {
        Optional<List<Path>> jars = CdsArchive.jarsOf(command);
        if (jars.isEmpty()) {
            return Optional.empty();
        }
        List<String> key = new ArrayList<>();
        key.add(LauncherCache.describeExecutable(command.get(0)));
        key.addAll(command.subList(1, command.size()));
        List<Path> inputs = new ArrayList<>();
        for (Path jar : jars.get()) {
            key.add(jar.toAbsolutePath().normalize().toString());
            inputs.add(jar);
        }
        Path configFile = config.toAbsolutePath().normalize();
        key.add("config " + configFile);
        inputs.add(configFile);
        return cache.directory()
                .map(dir -> new GroupCheckCache(
                        dir.resolve("groups-" + LauncherCache.key(key) + ".txt"), List.copyOf(inputs), cache));
    }

    /** The file the answer is kept in. */
    Path file() {
        return file;
    }

    /** The groups the program answered last, unless a jar changed since (or none was kept). */
    public Optional<List<String>> groups() {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            FileTime kept = Files.getLastModifiedTime(file);
            for (Path jar : jars) {
                if (!Files.isRegularFile(jar) || Files.getLastModifiedTime(jar).compareTo(kept) >= 0) {
                    return Optional.empty();
                }
            }
            String text;
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            List<String> groups = text.lines().filter(l -> !l.isBlank()).toList();
            return groups.isEmpty() ? Optional.empty() : Optional.of(groups);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Keeps {@code groups} (written aside, then renamed: a concurrent run reads the old answer or this one). */
    public void remember(List<String> groups) {
        if (cache.directory().isEmpty()) {
            return;
        }
        Path written = LauncherCache.freshSibling(file);
        try (OutputStream out = Files.newOutputStream(
                written, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            out.write((String.join("\n", groups) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // a name taken (nobody else can write the folder) or a full disk: the next run asks again
            return;
        }
        try {
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
