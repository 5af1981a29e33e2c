package org.fastflowj.examples.filesearch;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.fastflowj.core.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Source: walks each of its directories recursively and sends out the path of every regular file, then
 * EOS. Like {@code grep -r}, it follows a symbolic link given as a directory argument but not the links it
 * meets while walking (they are skipped, as are devices, FIFOs and sockets). A directory it cannot read
 * is reported on stderr and skipped. Paths are the directory argument joined with the relative path,
 * e.g. {@code d1/sub/a.txt}.
 *
 * <p>Threading: one node thread; the whole walk happens in the single {@code svc} call.
 */
public final class Reader extends Node<Void, Path> {
    private static final Logger LOG = LoggerFactory.getLogger(Reader.class);

    private final List<Path> dirs;

    /** A Reader of {@code dirs}, possibly none (it then sends EOS at once). */
    public Reader(List<Path> dirs) {
        this.dirs = List.copyOf(dirs);
    }

    @Override
    protected Path svc(Void none) {
        for (Path dir : dirs) {
            walk(dir);
        }
        return eos();
    }

    private void walk(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                visit(entry);
            }
        } catch (IOException | DirectoryIteratorException e) {
            LOG.warn("skipping directory {}: {}", dir, e.toString());
        }
    }

    private void visit(Path entry) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            LOG.warn("skipping {}: {}", entry, e.toString());
            return;
        }
        if (attributes.isDirectory()) {
            walk(entry);
        } else if (attributes.isRegularFile()) {
            sendOut(entry);
        }
    }

    @Override
    public String toString() {
        return "Reader" + dirs;
    }
}
