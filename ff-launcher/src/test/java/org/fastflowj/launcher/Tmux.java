package org.fastflowj.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Test support: an interactive shell on a real pseudo-terminal, in a tmux server of its own (private
 * socket). {@link #screen()} is the rendered screen (scrollback included), {@link #raw()} every byte the
 * pane's programs wrote, escape sequences included. {@link #close()} kills the server, and with it the
 * shell and whatever still runs in it.
 */
public final class Tmux implements AutoCloseable {
    private static final String SESSION = "fft";

    private final Path socket;
    private final Path raw;

    /** Starts {@code bash} (no rc files, prompt {@code $ }) on a {@code columns}x{@code rows} terminal. */
    public Tmux(Path dir, int columns, int rows) throws IOException, InterruptedException {
        this.socket = dir.resolve("tmux.sock");
        this.raw = dir.resolve("pane.raw");
        tmux(
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                SESSION,
                "-x",
                Integer.toString(columns),
                "-y",
                Integer.toString(rows),
                "-e",
                "PS1=$ ",
                "bash",
                "--norc",
                "--noprofile");
        // Before anything runs in the pane, so the raw copy has every byte.
        tmux("pipe-pane", "-t", SESSION, "-o", "cat >> '" + raw + "'");
    }

    /** Whether tmux can be run here. */
    public static boolean available() {
        try {
            Process p =
                    new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Types {@code keys} literally, then Enter. */
    public void type(String keys) throws IOException, InterruptedException {
        tmux("send-keys", "-t", SESSION, "-l", keys);
        tmux("send-keys", "-t", SESSION, "Enter");
    }

    /** Presses a key by tmux's name for it ({@code C-c}). */
    public void press(String key) throws IOException, InterruptedException {
        tmux("send-keys", "-t", SESSION, key);
    }

    /** The rendered screen with its scrollback, one string per row, trailing blanks removed. */
    public List<String> screen() throws IOException, InterruptedException {
        String text = tmux("capture-pane", "-p", "-t", SESSION, "-S", "-", "-E", "-");
        List<String> rows =
                new ArrayList<>(text.lines().map(String::stripTrailing).toList());
        while (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {
            rows.remove(rows.size() - 1);
        }
        return rows;
    }

    /** Everything the pane's programs wrote so far, as written. */
    public String raw() throws IOException {
        return Files.exists(raw) ? Files.readString(raw, StandardCharsets.UTF_8) : "";
    }

    /** Waits until a row of the screen matches; returns it, or fails with the screen after {@code seconds}. */
    public String awaitRow(Predicate<String> wanted, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            List<String> rows = screen();
            for (String row : rows) {
                if (wanted.test(row)) {
                    return row;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no such row within " + seconds + " s; screen:\n" + String.join("\n", rows));
            }
            Thread.sleep(100);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            tmux("kill-server");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-S", socket.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("TMUX"); // a test run from inside tmux still gets a server of its own
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("tmux " + String.join(" ", args) + " hangs");
        }
        if (p.exitValue() != 0 && !args[0].equals("kill-server")) {
            throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
