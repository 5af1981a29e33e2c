package org.fastflowj.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code --cds FILE}: the local groups share the classes they load through a CDS archive, which saves
 * most of a JVM's start-up work (class parsing and verification): measured on the README's three groups,
 * 1.7 CPU-seconds per group down to 1.0, and to 0.6 with {@code -XX:TieredStopAtLevel=1}. Without the
 * archive, or with one older than the application's jars, the first local group writes it when it exits
 * ({@code -XX:ArchiveClassesAtExit}); once it is there, every local group maps it
 * ({@code -XX:SharedArchiveFile}). JDK 17 has no {@code -XX:+AutoCreateSharedArchive}, hence the two steps.
 *
 * <p>Only a {@code java} command whose class path is made of jars qualifies: the JVM cannot archive
 * classes from a directory, and fails at exit when asked to.
 *
 * <p>Threading: used by the planning thread only.
 */
final class CdsArchive {
    private final Path file;
    private final boolean fresh;
    private final String unusable;
    private boolean writerChosen;

    private CdsArchive(Path file, boolean fresh, String unusable) {
        this.file = file;
        this.fresh = fresh;
        this.unusable = unusable;
    }

    /** The archive {@code file} for groups started with {@code command}. */
    static CdsArchive of(Path file, List<String> command) {
        Path absolute = file.toAbsolutePath().normalize();
        if (command.isEmpty() || !LaunchPlanner.isJava(command.get(0))) {
            return new CdsArchive(absolute, false, "the command does not start with java");
        }
        List<Path> jars = new ArrayList<>();
        Optional<String> notAJar = classPath(command, jars);
        if (notAJar.isPresent()) {
            return new CdsArchive(absolute, false, notAJar.get());
        }
        return new CdsArchive(absolute, isNewerThanAll(absolute, jars), null);
    }

    /** Why the groups run without the archive, or empty when they use it. */
    Optional<String> unusable() {
        return Optional.ofNullable(unusable);
    }

    /** The JVM options that map the archive, when it is there and fresh; none otherwise. */
    List<String> mappingOptions() {
        return unusable == null && fresh ? List.of("-XX:SharedArchiveFile=" + file) : List.of();
    }

    /** The JVM options for the next local group's {@code java}: map the archive, write it, or none. */
    List<String> nextGroupOptions() {
        if (unusable != null) {
            return List.of();
        }
        if (fresh) {
            return List.of("-XX:SharedArchiveFile=" + file);
        }
        if (!writerChosen) {
            writerChosen = true;
            // The JVM warns of every class it cannot archive (hundreds of lines): only errors matter here.
            return List.of("-XX:ArchiveClassesAtExit=" + file, "-Xlog:cds*=error");
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
    void deleteIfStale() {
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
