package org.fastflowj.launcher.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code --ship}: copies the application's files to every remote host before the run, so nobody has to
 * install the program on each host by hand. A file is copied only when the host has no copy with the
 * same SHA-256 in {@code --remote-dir}, so the second run of an unchanged jar costs one ssh round trip
 * per host.
 *
 * <pre>
 *   ssh host 'mkdir -p DIR &amp;&amp; cd DIR &amp;&amp; sha256sum f1 f2'   → what is there
 *   ssh host 'cat &gt; DIR/.f1.part &amp;&amp; mv DIR/.f1.part DIR/f1' &lt; f1       → each file that differs
 * </pre>
 *
 * <p>Threading: used on the main thread, before any group starts; one host after the other.
 */
public final class Shipper {
    private static final long STEP_TIMEOUT_S = 300;

    private final RemoteOptions remote;
    private final List<Path> files;
    private final List<String> hosts;

    public Shipper(RemoteOptions remote, List<Path> files, List<GroupLaunch> launches) {
        this.remote = remote;
        this.files = List.copyOf(files);
        this.hosts = launches.stream()
                .filter(GroupLaunch::remote)
                .map(GroupLaunch::host)
                .distinct()
                .toList();
    }

    /** What {@link #ship} would copy where (for {@code --dry-run}). */
    public void describe(PrintWriter out) {
        if (!files.isEmpty()) {
            for (String host : hosts) {
                out.println("ship to " + host + ":" + directory() + " (if changed): " + files);
            }
        }
    }

    /** Copies what changed to every remote host; false (after saying why) if a copy failed. */
    public boolean ship(PrintWriter err) throws IOException, InterruptedException {
        if (files.isEmpty() || hosts.isEmpty()) {
            return true;
        }
        Map<String, String> localHashes = new HashMap<>();
        for (Path file : files) {
            localHashes.put(file.getFileName().toString(), sha256(file));
        }
        for (String host : hosts) {
            long startNs = System.nanoTime();
            Step listing = remoteHashes(host);
            if (listing.code != 0 && listing.code != 1) {
                err.println("ff-launcher: --ship: cannot reach " + host + ": " + listing.output.strip());
                return false;
            }
            List<Path> changed = new ArrayList<>();
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!listing.output.contains(localHashes.get(name) + "  " + name)) {
                    changed.add(file);
                }
            }
            for (Path file : changed) {
                Step copy = copy(host, file);
                if (copy.code != 0) {
                    err.println(
                            "ff-launcher: --ship: copying " + file + " to " + host + " failed: " + copy.output.strip());
                    return false;
                }
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            err.println("ff-launcher: shipped " + changed.size() + " of " + files.size() + " files to " + host + " ("
                    + (files.size() - changed.size()) + " unchanged) in " + ms + " ms");
        }
        err.flush();
        return true;
    }

    private String directory() {
        return remote.remoteDir == null ? "." : remote.remoteDir;
    }

    private Step remoteHashes(String host) throws IOException, InterruptedException {
        List<String> names = files.stream().map(f -> f.getFileName().toString()).toList();
        String dir = ShellQuoting.quote(directory());
        // sha256sum exits 1 when a file is missing, which only means "copy it".
        String script =
                "mkdir -p " + dir + " && cd " + dir + " && sha256sum -- " + ShellQuoting.join(names) + " 2>/dev/null";
        return runStep(remote.sshTo(host, script));
    }

    /**
     * One file through ssh's own input, not scp: scp needs the server's sftp subsystem (OpenSSH 9), which
     * a minimal sshd may lack. The file is written under a temporary name and renamed, so a group never
     * sees half a jar.
     */
    private Step copy(String host, Path file) throws IOException, InterruptedException {
        String dir = directory();
        String name = file.getFileName().toString();
        String part = ShellQuoting.quote(dir + "/." + name + ".part");
        return runStep(
                remote.sshTo(host, "cat > " + part + " && mv -f " + part + " " + ShellQuoting.quote(dir + "/" + name)),
                file);
    }

    private record Step(int code, String output) {}

    private static Step runStep(List<String> argv) throws IOException, InterruptedException {
        return runStep(argv, null);
    }

    private static Step runStep(List<String> argv, Path input) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        if (input != null) {
            builder.redirectInput(input.toFile());
        }
        Process p = builder.start();
        if (input == null) {
            p.getOutputStream().close();
        }
        try (InputStream in = p.getInputStream()) {
            String output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(STEP_TIMEOUT_S, TimeUnit.SECONDS)) {
                return new Step(-1, "no answer within " + STEP_TIMEOUT_S + " s");
            }
            return new Step(p.exitValue(), output);
        } finally {
            p.destroyForcibly();
        }
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
