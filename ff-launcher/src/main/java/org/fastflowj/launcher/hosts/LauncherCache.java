package org.fastflowj.launcher.hosts;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The folder where the launcher keeps what makes a second run of a program start faster: its CDS
 * archive ({@link CdsArchive#automatic}) and the groups it creates ({@link GroupCheckCache}). It is
 * {@code <java.io.tmpdir>/fastflowj-<user>}, made with mode {@code 0700} in one step when missing.
 *
 * <p>The temporary folder is shared with every user, so whatever is found there under that name is
 * checked without following a link: a directory, not a symbolic link, owned by the user, mode {@code
 * 0700}, in a parent that others cannot write or that has the sticky bit (so nobody else can rename
 * it away and put another in its place). Anything else, or a folder that cannot be made, is treated as
 * absent: one warning, then the run keeps nothing and starts as the first did. Nobody else can then
 * create, replace or link a file in it, which is what lets the JVM write its archive there by name.
 * Each use checks the folder again; files are created under a fresh random name
 * ({@link #freshSibling}) with {@code CREATE_NEW}, then renamed into place.
 *
 * <p>Threading: used by the planning thread only.
 */
public final class LauncherCache {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final int GROUP_OR_OTHERS_WRITE = 0022;
    private static final int STICKY = 01000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path folder;
    private final String user;
    private final PrintWriter err;
    private boolean warned;

    LauncherCache(Path folder, String user, PrintWriter err) {
        this.folder = folder;
        this.user = user;
        this.err = err;
    }

    /** The cache of the user running the launcher, warning on {@code err} when it cannot be used. */
    public static LauncherCache ofUser(PrintWriter err) {
        String user = System.getProperty("user.name");
        return new LauncherCache(Path.of(System.getProperty("java.io.tmpdir"), "fastflowj-" + user), user, err);
    }

    /**
     * The folder, created if missing and checked anew at each call; empty when it is not the user's own
     * (said once, as a warning).
     */
    Optional<Path> directory() {
        Optional<String> problem = createOrCheck();
        if (problem.isEmpty()) {
            return Optional.of(folder);
        }
        if (!warned) {
            warned = true;
            err.println("ff-launcher: warning: the cache folder " + folder + " " + problem.get()
                    + "; running without a cache (no CDS archive, no kept groups)");
            err.flush();
        }
        return Optional.empty();
    }

    private Optional<String> createOrCheck() {
        try {
            Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            // someone's, checked below
        } catch (UnsupportedOperationException e) {
            return Optional.of("is on a file system without POSIX owners and permissions");
        } catch (IOException | SecurityException e) {
            return Optional.of("cannot be created (" + e + ")");
        }
        return problem(folder, user);
    }

    /** Why {@code folder} is not {@code user}'s own private folder, or empty when it is; links not followed. */
    static Optional<String> problem(Path folder, String user) {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return Optional.of("is on a file system without POSIX owners and permissions");
        } catch (IOException | SecurityException e) {
            return Optional.of("cannot be read (" + e + ")");
        }
        if (attributes.isSymbolicLink()) {
            return Optional.of("is a symbolic link; expected a directory of " + user + "'s own");
        }
        if (!attributes.isDirectory()) {
            return Optional.of("is not a directory");
        }
        String owner = attributes.owner().getName();
        if (!owner.equals(user)) {
            return Optional.of("belongs to " + owner + "; expected " + user);
        }
        if (!attributes.permissions().equals(OWNER_ONLY)) {
            return Optional.of(
                    "has mode " + PosixFilePermissions.toString(attributes.permissions()) + "; expected rwx------");
        }
        Path parent = folder.toAbsolutePath().getParent();
        try {
            int mode = (Integer) Files.getAttribute(parent, "unix:mode");
            if ((mode & GROUP_OR_OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
                return Optional.of("is in " + parent + ", which others can write and which has no sticky bit"
                        + " (another user could put a folder of theirs in its place)");
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.of("is in " + parent + ", whose mode cannot be read (" + e + ")");
        }
        return Optional.empty();
    }

    /** A name next to {@code file} that nobody can guess: {@code FILE.<random>.tmp}. */
    static Path freshSibling(Path file) {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return file.resolveSibling(file.getFileName() + "." + HexFormat.of().formatHex(random) + ".tmp");
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
