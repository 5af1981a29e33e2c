package org.fastflowj.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The directory where the launcher keeps what makes a second run of a program start faster: its CDS
 * archive ({@link CdsArchive#automatic}) and the groups it creates ({@link GroupCheckCache}). It is
 * {@code <java.io.tmpdir>/fastflowj-<user>}, readable by its owner only; when it belongs to someone else
 * or cannot be made, nothing is cached and every run starts as the first did.
 *
 * <p>Threading: used by the planning thread only.
 */
final class LauncherCache {
    private LauncherCache() {}

    /** The cache directory, created if missing; empty when it cannot be used. */
    static Optional<Path> directory() {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "fastflowj-" + System.getProperty("user.name"));
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
                try {
                    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: the directory keeps its default permissions
                }
            }
            String me = System.getProperty("user.name");
            return Files.getOwner(dir).getName().equals(me) && Files.isWritable(dir)
                    ? Optional.of(dir)
                    : Optional.empty();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** A file-name-safe digest of {@code parts}, in order. */
    static String key(List<String> parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * The program a command starts, as found on the {@code PATH} when it names no directory, with its
     * real path and modification time: a JDK installed over another is another JVM.
     */
    static String describeExecutable(String program) {
        Path found = Path.of(program);
        if (found.getParent() == null) {
            String path = System.getenv("PATH");
            for (String entry : path == null ? new String[0] : path.split(File.pathSeparator)) {
                Path candidate = Path.of(entry.isEmpty() ? "." : entry, program);
                if (Files.isExecutable(candidate)) {
                    found = candidate;
                    break;
                }
            }
        }
        try {
            Path real = found.toRealPath();
            return real + "@" + Files.getLastModifiedTime(real).toMillis();
        } catch (IOException e) {
            return program;
        }
    }
}
