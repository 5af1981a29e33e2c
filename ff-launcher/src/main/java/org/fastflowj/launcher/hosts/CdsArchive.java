package org.fastflowj.launcher.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code --cds FILE}: the local groups share the classes they load through a CDS archive, which saves
 * most of a JVM's start-up work (class parsing and verification), the larger part of a group's CPU time on
 * its way to the first result (less still with {@code -XX:TieredStopAtLevel=1}). Without the
 * archive, or with one older than the application's jars, the first local group writes it when it exits
 * ({@code -XX:ArchiveClassesAtExit}); once it is there, every local group maps it
 * ({@code -XX:SharedArchiveFile}). JDK 17 has no {@code -XX:+AutoCreateSharedArchive}, hence the two steps.
 * The group writes a file of its own under a fresh random name ({@code FILE.<random>.tmp}) that {@link
 * #publish} moves into place once the run succeeded: a run killed while the archive is written, or two
 * runs writing at once, never leave a partial archive for the next run to map, and nobody can plant a
 * link under the name the JVM writes.
 *
 * <p>Without {@code --cds}, {@link #automatic} picks the file itself ({@link LauncherCache}), one per
 * {@code java} executable and class path, so that a second run of the same program starts faster with no
 * option at all. That folder is checked before each use (planning, and again before the archive is
 * moved into place): the JVM writes the archive by name, which is safe only where nobody else can
 * create a file.
 *
 * <p>Only a {@code java} command whose class path is made of jars qualifies: the JVM cannot archive
 * classes from a directory, and fails at exit when asked to.
 *
 * <p>Threading: used by the planning thread only.
 */
public final class CdsArchive {
    private final Path file;
    private final Path written;
    private final boolean fresh;
    private final String unusable;
    /** The launcher's cache when the archive is in it, checked again before the archive is moved; else null. */
    private final LauncherCache cache;

    private boolean writerChosen;

    private CdsArchive(Path file, boolean fresh, String unusable, LauncherCache cache) {
        this.file = file;
        this.written = LauncherCache.freshSibling(file);
        this.fresh = fresh;
        this.unusable = unusable;
        this.cache = cache;
    }

    /** The archive {@code file} for groups started with {@code command}. */
    public static CdsArchive of(Path file, List<String> command) {
        return of(file, command, null);
    }

    private static CdsArchive of(Path file, List<String> command, LauncherCache cache) {
        Path absolute = file.toAbsolutePath().normalize();
        if (command.isEmpty() || !JavaCommand.isJava(command.get(0))) {
            return new CdsArchive(absolute, false, "the command does not start with java", cache);
        }
        List<Path> jars = new ArrayList<>();
        Optional<String> notAJar = classPath(command, jars);
        if (notAJar.isPresent()) {
            return new CdsArchive(absolute, false, notAJar.get(), cache);
        }
        return new CdsArchive(absolute, isNewerThanAll(absolute, jars), null, cache);
    }

    /**
     * The archive for {@code command} in the launcher's cache directory, or empty when the command does not
     * qualify (not {@code java}, a class path with a directory) or the directory cannot be used.
     */
    public static Optional<CdsArchive> automatic(List<String> command, LauncherCache cache) {
        if (command.isEmpty() || !JavaCommand.isJava(command.get(0))) {
            return Optional.empty();
        }
        List<Path> jars = new ArrayList<>();
        if (classPath(command, jars).isPresent()) {
            return Optional.empty();
        }
        return cache.directory()
                .map(dir -> of(
                        dir.resolve("cds-" + LauncherCache.key(javaAndClassPath(command, jars)) + ".jsa"),
                        command,
                        cache));
    }

    /** What the archive depends on: the JVM that writes and maps it, and the jars it holds classes of. */
    private static List<String> javaAndClassPath(List<String> command, List<Path> jars) {
        List<String> key = new ArrayList<>();
        key.add(LauncherCache.describeExecutable(command.get(0)));
        jars.forEach(j -> key.add(j.toAbsolutePath().normalize().toString()));
        return key;
    }

    /** The jars on {@code command}'s class path, or empty when it names none or has a directory. */
    static Optional<List<Path>> jarsOf(List<String> command) {
        List<Path> jars = new ArrayList<>();
        return command.isEmpty()
                        || !JavaCommand.isJava(command.get(0))
                        || classPath(command, jars).isPresent()
                ? Optional.empty()
                : Optional.of(jars);
    }

    /** The archive's file (once published). */
    Path file() {
        return file;
    }

    /**
     * After the run: when it succeeded, moves the archive a group wrote into place (an atomic rename);
     * otherwise, or when it could not be moved, removes it. Nothing when no group wrote one, or when the
     * cache folder it is in is no longer the user's own.
     */
    public void publish(boolean runSucceeded) {
        if (cache != null && cache.directory().isEmpty()) {
            return;
        }
        if (!Files.isRegularFile(written, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            if (runSucceeded) {
                Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(written);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(written);
            } catch (IOException ignored) {
                // a leftover temporary file is harmless: no run maps it
            }
        }
    }

    /** Why the groups run without the archive, or empty when they use it. */
    public Optional<String> unusable() {
        return Optional.ofNullable(unusable);
    }

    /** The JVM options that map the archive, when it is there and fresh; none otherwise. */
    public List<String> mappingOptions() {
        return unusable == null && fresh ? List.of("-XX:SharedArchiveFile=" + file) : List.of();
    }

    /** The JVM options for the next local group's {@code java}: map the archive, write it, or none. */
    public List<String> nextGroupOptions() {
        if (unusable != null) {
            return List.of();
        }
        if (fresh) {
            return List.of("-XX:SharedArchiveFile=" + file);
        }
        if (!writerChosen) {
            writerChosen = true;
            // The JVM warns of every class it cannot archive (hundreds of lines): only errors matter here.
            return List.of("-XX:ArchiveClassesAtExit=" + written, "-Xlog:cds*=error");
        }
        return List.of();
    }

    /** Collects the jars of {@code command}'s class path; a reason when an entry is not a jar. */
    private static Optional<String> classPath(List<String> command, List<Path> jars) {
        boolean found = false;
        for (int i = 1; i + 1 < command.size(); i++) {
            String option = command.get(i);
            if (option.equals("-jar")) {
                jars.add(Path.of(command.get(i + 1)));
                return Optional.empty();
            }
            if (option.equals("-cp") || option.equals("-classpath") || option.equals("--class-path")) {
                for (String entry : command.get(i + 1).split(java.io.File.pathSeparator)) {
                    if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                        return Optional.of("CDS archives classes from jars only, and the class path has " + entry);
                    }
                    jars.add(Path.of(entry));
                }
                found = true;
            }
        }
        return found ? Optional.empty() : Optional.of("the command gives no -jar or -cp");
    }

    /** Before the groups start: removes an archive that a group is to write anew (the JVM writes them read-only). */
    public void deleteIfStale() {
        if (unusable == null && !fresh) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot replace the stale CDS archive " + file, e);
            }
        }
    }

    private static boolean isNewerThanAll(Path archive, List<Path> jars) {
        if (!Files.isRegularFile(archive)) {
            return false;
        }
        try {
            FileTime written = Files.getLastModifiedTime(archive);
            for (Path jar : jars) {
                if (Files.exists(jar) && Files.getLastModifiedTime(jar).compareTo(written) >= 0) {
                    return false; // rebuilt since: the JVM would refuse the archive, with a warning
                }
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the time of " + archive, e);
        }
    }
}
