package org.fastflowj.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium} run headless on one URL: it loads the page, lets its scripts run for a few
 * seconds of virtual time (timers fire at once, fetches wait for the network), then dumps the DOM or
 * takes a screenshot. Every start has its own profile directory, a deadline, and its whole process
 * tree destroyed afterwards. ff-core's live page tests and the launcher's use it; ff-core's test-jar
 * carries this package (and only it) to the launcher's tests.
 *
 * <p>Threading: one test thread per instance; each call waits for its chromium to end.
 */
public final class HeadlessChromium {
    /** The screenshot's width in pixels. */
    public static final int WIDTH = 1200;
    /** The screenshot's height in pixels. */
    public static final int HEIGHT = 800;

    private static final long DEADLINE_SECONDS = 90;
    private static final String[] NAMES = {"chromium", "chromium-browser"};

    private final Path binary;
    private final Path workDir;

    private HeadlessChromium(Path binary, Path workDir) {
        this.binary = binary;
        this.workDir = workDir;
    }

    /**
     * Chromium from the PATH, or empty if there is none (a test then skips); {@code workDir} takes its
     * profiles, logs and outputs.
     */
    public static Optional<HeadlessChromium> find(Path workDir) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : NAMES) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(new HeadlessChromium(candidate, workDir));
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM after its scripts ran for {@code virtualMillis}. */
    public String dumpDom(String url, int virtualMillis) throws IOException, InterruptedException {
        Path dom = workDir.resolve("dom.html");
        run("dom", dom, "--dump-dom", "--virtual-time-budget=" + virtualMillis, url);
        return Files.readString(dom, StandardCharsets.UTF_8);
    }

    /** A PNG of the window after the page's scripts ran for {@code virtualMillis}. */
    public Path screenshot(String url, int virtualMillis) throws IOException, InterruptedException {
        Path png = workDir.resolve("screenshot.png");
        run(
                "screenshot",
                workDir.resolve("screenshot.out"),
                "--screenshot=" + png,
                "--hide-scrollbars",
                "--window-size=" + WIDTH + "," + HEIGHT,
                "--virtual-time-budget=" + virtualMillis,
                url);
        return png;
    }

    private void run(String what, Path stdout, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--headless",
                "--no-sandbox", // the tests may run as root, where the sandbox refuses to start
                "--disable-gpu",
                "--no-first-run",
                "--user-data-dir=" + workDir.resolve("profile-" + what)));
        command.addAll(List.of(arguments));
        Path stderr = workDir.resolve(what + ".err");
        Process chromium = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        try {
            boolean ended = chromium.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS);
            assertThat(ended)
                    .as("chromium (%s) ended within %d s; its log: %s", what, DEADLINE_SECONDS, tail(stderr))
                    .isTrue();
            assertThat(chromium.exitValue())
                    .as("chromium (%s) exit code; its log: %s", what, tail(stderr))
                    .isZero();
        } finally {
            chromium.descendants().forEach(ProcessHandle::destroyForcibly);
            chromium.destroyForcibly();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
