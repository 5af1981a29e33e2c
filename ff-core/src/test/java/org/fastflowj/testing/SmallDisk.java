package org.fastflowj.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real tmpfs of a few KiB, to make writes fail with "No space left on device": {@code mount -t tmpfs}
 * needs root (or CAP_SYS_ADMIN); without it {@link #mounted} is false and {@link #why} says why, for
 * the test's assumption. {@link #close} unmounts it.
 *
 * <p>Threading: one test thread.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path path;
    private final String why;

    private SmallDisk(Path path, String why) {
        this.path = path;
        this.why = why;
    }

    /** Mounts a tmpfs of {@code kib} KiB on {@code dir} (created if missing). */
    public static SmallDisk mount(Path dir, int kib) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process mount = new ProcessBuilder(
                        List.of("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", dir.toString()))
                .redirectErrorStream(true)
                .start();
        try {
            mount.getOutputStream().close();
            String said = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!mount.waitFor(20, TimeUnit.SECONDS) || mount.exitValue() != 0) {
                return new SmallDisk(dir, "cannot mount a " + kib + " KiB tmpfs to fill (needs root): " + said);
            }
        } catch (IOException e) {
            return new SmallDisk(dir, "cannot run mount: " + e.getMessage());
        } finally {
            mount.destroyForcibly();
        }
        return new SmallDisk(dir, null);
    }

    public boolean mounted() {
        return why == null;
    }

    /** Why there is no small disk, or null. */
    public String why() {
        return why;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        if (!mounted()) {
            return;
        }
        // lazily: a process the test could not stop in time may still hold a file open
        Process umount =
                new ProcessBuilder("umount", "-l", path.toString()).inheritIO().start();
        try {
            umount.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            umount.destroyForcibly();
        }
    }
}
