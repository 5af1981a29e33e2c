package org.fastflowj.stream;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The part files of one sink instance in its directory, by sequence number: {@code part-<instance>-<seq>}
 * once visible, {@code .part-<instance>-<seq>.inprogress} before (a leading dot, so a hidden file never
 * looks like a part to a reader that takes every {@code part-*}).
 */
final class PartFiles {
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Path directory;
    private final int instance;
    private final Pattern visibleName;
    private final Pattern hiddenName;

    PartFiles(Path directory, int instance) {
        this.directory = directory;
        this.instance = instance;
        this.visibleName = Pattern.compile("part-" + instance + "-(\\d+)");
        this.hiddenName = Pattern.compile("\\.part-" + instance + "-(\\d+)\\.inprogress");
    }

    Path directory() {
        return directory;
    }

    /** Zero-padded, so that listing the directory by name lists the parts in order (up to a million). */
    Path visible(long sequence) {
        return directory.resolve(String.format("part-%d-%06d", instance, sequence));
    }

    Path hidden(long sequence) {
        return directory.resolve(String.format(".part-%d-%06d.inprogress", instance, sequence));
    }

    /**
     * A new hidden part, readable and writable by its owner only: the job's output is nobody else's to
     * read before the job makes it visible, and the rename keeps the permissions.
     */
    FileChannel create(long sequence) throws IOException {
        Path file = hidden(sequence);
        Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            return POSIX
                    ? FileChannel.open(
                            file,
                            options,
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : FileChannel.open(file, options);
        } catch (IOException e) {
            throw new IOException("sink lineParts: cannot create " + file + ": " + e, e);
        }
    }

    /**
     * Makes part {@code sequence} visible. Idempotent: a restore commits again what a completion notice may
     * have committed already.
     */
    void publish(long sequence) throws IOException {
        Path from = hidden(sequence);
        Path to = visible(sequence);
        if (Files.exists(to) && Files.exists(from)) {
            throw new IOException("sink lineParts: cannot make " + from + " visible: " + to + " exists already");
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        } catch (NoSuchFileException e) {
            if (!Files.isRegularFile(to)) {
                throw new IOException(
                        "sink lineParts: pending part " + from + " is gone, and " + to + " was never made", e);
            }
        } catch (IOException e) {
            throw new IOException("sink lineParts: cannot rename " + from + " to " + to + ": " + e, e);
        }
    }

    /** The visible parts by sequence number. */
    NavigableMap<Long, Path> visibleParts() throws IOException {
        return parts(visibleName);
    }

    /** The hidden (in-progress or pending) parts by sequence number. */
    NavigableMap<Long, Path> hiddenParts() throws IOException {
        return parts(hiddenName);
    }

    private TreeMap<Long, Path> parts(Pattern name) throws IOException {
        TreeMap<Long, Path> parts = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(file -> {
                Matcher m = name.matcher(file.getFileName().toString());
                if (m.matches()) {
                    parts.put(Long.parseLong(m.group(1)), file);
                }
            });
        } catch (IOException e) {
            throw new IOException("sink lineParts: cannot list " + directory + ": " + e, e);
        }
        return parts;
    }

    /** A rename or a new file's name is durable only once the directory is: best effort where refused. */
    void forceDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the platform cannot force a directory (Windows): the renames are as durable as it makes them
        }
    }
}
