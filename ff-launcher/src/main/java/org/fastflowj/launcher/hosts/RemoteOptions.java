package org.fastflowj.launcher.hosts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How groups on other hosts are reached: the ssh options shared by {@code run} and {@code --ship}. All
 * are optional; ssh's own {@code ~/.ssh/config} still applies, so a cluster already set up for ssh needs
 * none of them.
 *
 * <p>Threading: filled by picocli on the main thread, then only read.
 */
public final class RemoteOptions {
    @Option(
            names = "--ssh-user",
            paramLabel = "USER",
            description = "User to log in as on remote hosts (ssh -l). Default: ssh's own choice.")
    String user;

    @Option(
            names = "--ssh-identity",
            paramLabel = "FILE",
            description = "Private key for remote hosts (ssh -i). Default: ssh's own choice.")
    Path identity;

    @Option(
            names = "--ssh-option",
            paramLabel = "KEY=VALUE",
            description = "An ssh -o option, repeatable (Port=2222, StrictHostKeyChecking=accept-new, ...).")
    List<String> sshOptions = new ArrayList<>();

    @Option(
            names = "--remote-dir",
            paramLabel = "DIR",
            description = "Directory a remote group starts in, and where --ship copies files."
                    + " Default: the login directory.")
    String remoteDir;

    @Option(
            names = "--ssh-command",
            paramLabel = "PROGRAM",
            defaultValue = "ssh",
            description = "The ssh client to run (default: ${DEFAULT-VALUE}).")
    String sshCommand = "ssh";

    /** The directory a remote group starts in and files are shipped to, or null for the login directory. */
    public String remoteDir() {
        return remoteDir;
    }

    /** {@code ssh} with every option, up to (not including) the host. */
    List<String> sshPrefix() {
        List<String> argv = new ArrayList<>();
        argv.add(sshCommand);
        // No terminal: the remote output stays a plain byte stream; BatchMode: never wait for a password.
        argv.add("-T");
        argv.addAll(List.of("-o", "BatchMode=yes"));
        argv.addAll(commonOptions());
        if (user != null) {
            argv.addAll(List.of("-l", user));
        }
        return argv;
    }

    /**
     * {@code ssh} with every option, then {@code --}, {@code host} and {@code script}: the host comes from the
     * config, and after {@code --} ssh takes it as the destination even if it started with {@code -}.
     */
    public List<String> sshTo(String host, String script) {
        List<String> argv = sshPrefix();
        argv.add("--");
        argv.add(host);
        argv.add(script);
        return argv;
    }

    private List<String> commonOptions() {
        List<String> argv = new ArrayList<>();
        if (identity != null) {
            argv.addAll(List.of("-i", identity.toString()));
        }
        for (String option : sshOptions) {
            argv.addAll(List.of("-o", option));
        }
        return argv;
    }
}
