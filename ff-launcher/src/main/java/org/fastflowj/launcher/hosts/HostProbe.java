package org.fastflowj.launcher.hosts;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.fastflowj.dist.GroupConfig;

/**
 * Whether a host can run a group right now, asked before a restart: this machine always can; {@code
 * netns:NAME} can while namespace NAME exists and {@code ip netns exec NAME true} runs in it; any other
 * host can when {@code ssh [the run's ssh options] -o ConnectTimeout=5 -- HOST true} exits 0, so the
 * answer comes through the very options and keys the groups are started with. Every host is asked at
 * once, each for at most {@link #PROBE_TIMEOUT}.
 *
 * <p>Threading: immutable; each call starts and waits for its own processes.
 */
public final class HostProbe {
    /** ssh's ConnectTimeout: a host that does not answer a TCP connect within it counts as lost. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** A host that takes longer to run {@code true} (slow login, hung file system) counts as lost too. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final RemoteOptions remote;
    private final LocalHosts localHosts;
    private final Predicate<String> namespaceExists;

    public HostProbe(RemoteOptions remote, LocalHosts localHosts) {
        this(remote, localHosts, NamespaceHosts.Machine.detect().namespaceExists());
    }

    HostProbe(RemoteOptions remote, LocalHosts localHosts, Predicate<String> namespaceExists) {
        this.remote = remote;
        this.localHosts = localHosts;
        this.namespaceExists = namespaceExists;
    }

    /** Those of {@code hosts} (as a group's {@code host} key names them) that cannot run a group now, with why. */
    public Map<String, String> unusable(Collection<String> hosts) {
        Map<String, String> unusable = new LinkedHashMap<>();
        Map<String, Probe> probes = new LinkedHashMap<>();
        for (String host : new LinkedHashSet<>(hosts)) {
            List<String> argv = command(host, unusable);
            if (argv != null) {
                probes.put(host, Probe.start(argv, unusable, host));
            }
        }
        long deadlineNs = System.nanoTime() + PROBE_TIMEOUT.toNanos();
        probes.forEach((host, probe) -> {
            if (probe != null) {
                probe.await(deadlineNs).ifPresent(why -> unusable.put(host, why));
            }
        });
        return unusable;
    }

    /** The command that asks {@code host}, or null when there is nothing to ask (or {@code unusable} says why). */
    private List<String> command(String host, Map<String, String> unusable) {
        if (host.startsWith(GroupConfig.NETNS_HOST_PREFIX)) {
            String namespace = host.substring(GroupConfig.NETNS_HOST_PREFIX.length());
            if (!namespaceExists.test(namespace)) {
                unusable.put(host, "no network namespace '" + namespace + "' on this machine");
                return null;
            }
            return NamespaceHosts.enter(namespace, List.of("true"));
        }
        if (localHosts.isLocal(host)) {
            return null;
        }
        List<String> argv = new ArrayList<>(remote.sshPrefix());
        // After the run's own -o options: ssh keeps the first value of each, so theirs wins.
        argv.addAll(List.of("-o", "ConnectTimeout=" + CONNECT_TIMEOUT.toSeconds(), "--", host, "true"));
        return argv;
    }

    /** One probe's process and its output, read as it comes so that a full pipe never holds it up. */
    private record Probe(Process process, CompletableFuture<String> output) {
        static Probe start(List<String> argv, Map<String, String> unusable, String host) {
            try {
                Process process = new ProcessBuilder(argv)
                        .redirectErrorStream(true)
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .start();
                return new Probe(process, CompletableFuture.supplyAsync(() -> read(process.getInputStream())));
            } catch (IOException e) {
                unusable.put(host, "cannot run " + argv.get(0) + " to ask it: " + e.getMessage());
                return null;
            }
        }

        /** Why the host cannot run a group, from this probe's end; empty when it ran {@code true}. */
        Optional<String> await(long deadlineNs) {
            try {
                if (!process.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    return Optional.of("no answer within " + PROBE_TIMEOUT.toSeconds() + " s");
                }
                if (process.exitValue() == 0) {
                    return Optional.empty();
                }
                String said = output.get(1, TimeUnit.SECONDS).strip();
                String last = said.lines()
                        .reduce((a, b) -> b)
                        .map(line -> ": " + line)
                        .orElse("");
                return Optional.of("`true` there exited " + process.exitValue() + last);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while asking it");
            } catch (ExecutionException | TimeoutException e) {
                return Optional.of("`true` there exited " + process.exitValue());
            }
        }

        private static String read(InputStream in) {
            try (in) {
                return new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
    }
}
