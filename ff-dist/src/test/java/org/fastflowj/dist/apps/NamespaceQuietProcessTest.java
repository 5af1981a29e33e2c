package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two groups in a network namespace of their own, with only loopback up and so no hardware address,
 * print nothing of Netty's on stderr: it would warn that it found no usable hardware address for its
 * channel ids, unless ff-dist gives it a machine id. Needs root, {@code ip netns}; skipped without.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NamespaceQuietProcessTest {
    private static final long COUNT = 2_000;

    @TempDir
    Path dir;

    @Test
    void shouldRunTwoGroupsInANamespaceWithOnlyLoopbackWithoutNettysHardwareAddressWarning() throws Exception {
        String namespace = "ffj-quiet-" + ThreadLocalRandom.current().nextInt(1 << 20);
        assumeTrue(run("ip", "netns", "add", namespace), "no network namespaces here (needs root and ip netns)");
        try {
            assertThat(run("ip", "-n", namespace, "link", "set", "lo", "up")).isTrue();
            List<String> groups = List.of("A", "B");
            Path config = ProcessCluster.config(dir, groups, "");
            try (ProcessCluster cluster = ProcessCluster.startOn(
                    javaInside(namespace), QuietRunApp.class, config, groups, List.of(), Long.toString(COUNT))) {
                Map<String, Integer> codes = cluster.awaitExit(60);

                assertThat(codes).as(cluster.allOutput()).containsOnly(Map.entry("A", 0), Map.entry("B", 0));
                assertThat(cluster.output("B"))
                        .contains("sum=" + LongStream.range(0, COUNT).sum());
                for (String g : groups) {
                    assertThat(cluster.output(g).lines())
                            .as("lines printed by Netty")
                            .noneMatch(line -> line.contains("hardware address") || line.contains("WARN"));
                }
            }
        } finally {
            run("ip", "netns", "delete", namespace);
        }
    }

    /** A JDK home whose {@code bin/java} runs this test's JDK inside {@code namespace}. */
    private Path javaInside(String namespace) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("jdk-in-netns").resolve("bin"));
        Path java = bin.resolve("java");
        String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(java, "#!/bin/sh\nexec ip netns exec " + namespace + " '" + real + "' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin.getParent();
    }

    private static boolean run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
