package org.fastflowj.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Test support: the launcher as a process of its own (for signals), its output collected, and a way to
 * wait until a line shows up. {@link #close()} kills the launcher and every process it reported starting.
 */
public final class LauncherProcess implements AutoCloseable {
    private final Process process;
    private final StringBuffer out = new StringBuffer();
    private final StringBuffer err = new StringBuffer();
    private final List<Runnable> waiters = new ArrayList<>();

    public LauncherProcess(List<String> launcherArgs) throws IOException {
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.add(Main.class.getName());
        command.addAll(launcherArgs);
        process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        copy(process.getInputStream(), out);
        copy(process.getErrorStream(), err);
    }

    public Process process() {
        return process;
    }

    /** Waits until a line of stdout or stderr matches (checked on every new line), or fails after {@code seconds}. */
    public String awaitLine(Predicate<String> wanted, long seconds) throws Exception {
        CompletableFuture<String> found = new CompletableFuture<>();
        Runnable check =
                () -> (err.toString() + out).lines().filter(wanted).findFirst().ifPresent(found::complete);
        synchronized (waiters) {
            waiters.add(check);
        }
        check.run();
        try {
            return found.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no such line within " + seconds + " s:\n" + output(), e);
        }
    }

    public String output() {
        return "--- stdout ---\n" + out + "--- stderr ---\n" + err;
    }

    public String err() {
        return err.toString();
    }

    private void copy(InputStream stream, StringBuffer into) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    into.append(line).append('\n');
                    synchronized (waiters) {
                        waiters.forEach(Runnable::run);
                    }
                }
            } catch (IOException e) {
                // The process is gone: what was read is all there is.
            }
        });
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        List<Long> pids = Launcher.pidsIn(err.toString());
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        Launcher.killAll(pids);
    }
}
