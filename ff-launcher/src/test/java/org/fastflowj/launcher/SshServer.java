package org.fastflowj.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Test support: a throw-away OpenSSH server (Debian's openssh-server) on one address, with its own host
 * key and one client key, optionally inside a network namespace. Tests skip when sshd is not installed.
 */
final class SshServer implements AutoCloseable {
    static final Path SSHD = Path.of("/usr/sbin/sshd");

    private final Process process;
    private final Path clientKey;
    private final String address;
    private final int port;

    private SshServer(Process process, Path clientKey, String address, int port) {
        this.process = process;
        this.clientKey = clientKey;
        this.address = address;
        this.port = port;
    }

    static void assumeInstalled() {
        Assumptions.assumeTrue(
                Files.isExecutable(SSHD),
                "skipped: no " + SSHD + " (apt-get install -y openssh-server openssh-client)");
    }

    /** Starts sshd on {@code address:port}, inside {@code netns} unless null; returns once it accepts. */
    static SshServer start(Path dir, String netns, String address, int port) throws Exception {
        return start(dir, netns, address, port, null);
    }

    /** As {@link #start(Path, String, String, int)}, accepting the client key of another server if not null. */
    static SshServer start(Path dir, String netns, String address, int port, Path sharedClientKey) throws Exception {
        assumeInstalled();
        Files.createDirectories(Path.of("/run/sshd"));
        Path hostKey = dir.resolve("host_key");
        Path clientKey = dir.resolve("client_key");
        keygen(hostKey);
        if (sharedClientKey == null) {
            keygen(clientKey);
        } else {
            Files.copy(sharedClientKey, clientKey);
            Files.copy(sharedClientKey.resolveSibling("client_key.pub"), dir.resolve("client_key.pub"));
        }
        Files.copy(dir.resolve("client_key.pub"), dir.resolve("authorized_keys"));
        Path config = dir.resolve("sshd_config");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "ListenAddress " + address,
                        "Port " + port,
                        "HostKey " + hostKey,
                        "PidFile " + dir.resolve("sshd.pid"),
                        "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                        "PermitRootLogin prohibit-password",
                        "PasswordAuthentication no",
                        "KbdInteractiveAuthentication no",
                        "UsePAM no",
                        "StrictModes no",
                        ""));
        List<String> command = new ArrayList<>();
        if (netns != null) {
            command.addAll(List.of("ip", "netns", "exec", netns));
        }
        command.addAll(List.of(SSHD.toString(), "-D", "-e", "-f", config.toString()));
        Process sshd = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sshd.log").toFile())
                .start();
        SshServer server = new SshServer(sshd, clientKey, address, port);
        try {
            server.awaitListening(dir, netns);
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    Path clientKey() {
        return clientKey;
    }

    /** ssh options for this server's port and key, for hosts named by their address. */
    List<String> directOptions() {
        return List.of(
                "--ssh-identity", clientKey.toString(),
                "--ssh-user", "root",
                "--ssh-option", "Port=" + port,
                "--ssh-option", "StrictHostKeyChecking=no",
                "--ssh-option", "UserKnownHostsFile=/dev/null",
                "--ssh-option", "LogLevel=ERROR");
    }

    /** ssh options that reach this server under any host name (the name is only an alias). */
    List<String> launcherOptions() {
        return List.of(
                "--ssh-identity", clientKey.toString(),
                "--ssh-user", "root",
                "--ssh-option", "HostName=" + address,
                "--ssh-option", "Port=" + port,
                "--ssh-option", "StrictHostKeyChecking=no",
                "--ssh-option", "UserKnownHostsFile=/dev/null",
                "--ssh-option", "LogLevel=ERROR");
    }

    private void awaitListening(Path dir, String netns) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("sshd exited: " + Files.readString(dir.resolve("sshd.log")));
            }
            if (netns != null ? Files.exists(dir.resolve("sshd.pid")) : accepts()) {
                return;
            }
            process.waitFor(20, TimeUnit.MILLISECONDS); // poll: sshd signals readiness only by listening
        }
        throw new AssertionError("sshd not listening after 15 s: " + Files.readString(dir.resolve("sshd.log")));
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void keygen(Path key) throws Exception {
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("ssh-keygen failed for " + key);
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
