package org.fastflowj.launcher.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The log file of a group in {@code --log-dir}: {@code GROUP.log}, checked to be a file of that folder
 * and made there (created or truncated) without following a link. Group names are checked where the
 * config is read ({@code Group.NAME_RULE}); this check stands behind it, so that no name, whatever its
 * origin, writes outside the folder or through a link someone put in it.
 *
 * <p>Threading: used by the thread that starts the groups.
 */
final class LogFiles {
    private LogFiles() {}

    /** {@code group}'s log file in {@code logDir}, created empty; an error naming the group otherwise. */
    static Path create(Path logDir, String group) throws IOException {
        Path dir = logDir.toAbsolutePath().normalize();
        Path file = dir.resolve(group + ".log").normalize();
        if (!dir.equals(file.getParent())) {
            throw new IOException("group " + group + ": its log file " + file + " is not in --log-dir " + dir
                    + "; a group name has no path separator and no '..'");
        }
        if (Files.isSymbolicLink(file)) {
            throw new IOException("group " + group + ": its log file " + file
                    + " is a symbolic link; remove it, the launcher writes no log through a link");
        }
        // NOFOLLOW_LINKS: O_NOFOLLOW, so a link put there since the check above fails the open too.
        Files.newByteChannel(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS)
                .close();
        return file;
    }
}
