package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "host": "netns:NAME"} without a namespace: the refusals that name the group
 * and what {@code check} says. {@code NamespaceHostLaunchTest} runs groups in real namespaces.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamespaceHostsTest {
    private static final String CONFIG =
            """
            {"groups": [
              {"name": "A", "endpoint": "10.213.0.1:9001", "host": "netns:ffj1"},
              {"name": "B", "endpoint": "10.213.0.2:9001", "host": "netns:ffj2", "preCmd": "taskset -c 0"},
              {"name": "C", "endpoint": "127.0.0.1:9003"}
            ]}
            """;

    @TempDir
    Path dir;

    private static DffConfig config() {
        return DffConfig.parse(CONFIG, "app.json");
    }

    @Test
    void shouldRefuseEveryNamespaceGroupWhenNotRootNamingIt() {
        List<String> problems = NamespaceHosts.problems(config(), new NamespaceHosts.Machine(1000, true, name -> true));

        assertThat(problems)
                .containsExactly(
                        "app.json:2:3: group 'A' (host netns:ffj1): entering a network namespace needs root; the"
                                + " launcher runs as uid 1000",
                        "app.json:3:3: group 'B' (host netns:ffj2): entering a network namespace needs root; the"
                                + " launcher runs as uid 1000");
    }

    @Test
    void shouldRefuseWhenIpIsMissing() {
        List<String> problems = NamespaceHosts.problems(config(), new NamespaceHosts.Machine(0, false, name -> true));

        assertThat(problems).hasSize(2);
        assertThat(problems.get(0))
                .isEqualTo("app.json:2:3: group 'A' (host netns:ffj1): no 'ip' command on the PATH to enter the"
                        + " namespace with; install iproute2");
    }

    @Test
    void shouldNameTheNamespaceThatDoesNotExist() {
        List<String> problems =
                NamespaceHosts.problems(config(), new NamespaceHosts.Machine(0, true, Set.of("ffj1")::contains));

        assertThat(problems)
                .containsExactly("app.json:3:3: group 'B' (host netns:ffj2): no network namespace 'ffj2' on this"
                        + " machine (`ip netns list` shows them; `ip netns add ffj2` makes one)");
    }

    @Test
    void shouldFindNothingWithoutNamespaceGroups() {
        DffConfig plain = DffConfig.parse("{\"groups\": [{\"name\": \"A\", \"endpoint\": \"127.0.0.1:9\"}]}", "p.json");

        assertThat(NamespaceHosts.problems(plain, new NamespaceHosts.Machine(1000, false, name -> false)))
                .isEmpty();
    }

    @Test
    void shouldStartNothingWhenANamespaceCannotBeEntered() throws Exception {
        // Whoever runs the test: as root the namespace is missing, otherwise root is; either names the group.
        String missing = "fflnone" + ProcessHandle.current().pid();
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\"groups\": [{\"name\": \"A\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort()
                        + "\"},\n {\"name\": \"B\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort()
                        + "\", \"host\": \"netns:" + missing + "\"},\n {\"name\": \"C\", \"endpoint\": \"127.0.0.1:"
                        + Launcher.freePort() + "\"}]}\n");

        Launcher.Result result = Launcher.run(
                Launcher.args(List.of("run", "-c", config.toString(), "--no-status"), Launcher.sumApp("10")));

        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("app.json:2:2: group 'B' (host netns:" + missing + "): ")
                .containsAnyOf("needs root", "no network namespace '" + missing + "'", "no 'ip' command")
                .contains("ff-launcher: started no group")
                .doesNotContain("ff-launcher: started 0");
        assertThat(result.out()).doesNotContain("[A]");
    }

    @Test
    void shouldSayInCheckWhereANamespaceGroupStarts() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(config, CONFIG);

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.out())
                .contains("A: 10.213.0.1:9001, started in network namespace ffj1 of this machine (ip netns exec)")
                .contains("C: 127.0.0.1:9003, started locally");
        assertThat(result.err())
                .as("A and B share a port, each in a namespace of its own")
                .doesNotContain("9001");
    }

    @Test
    void shouldRejectTwoGroupsOnOneAddressAndPortOfOneNamespace() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                """
                {"groups": [
                  {"name": "A", "endpoint": "0.0.0.0:9001", "host": "netns:ffj1"},
                  {"name": "B", "endpoint": "10.213.0.1:9001", "host": "netns:ffj1"}
                ]}
                """);

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("group 'B' and group 'A' (2:3) both listen on port 9001 of network namespace ffj1 on"
                        + " overlapping addresses (10.213.0.1:9001 is 10.213.0.1, 0.0.0.0:9001 is 0.0.0.0)");
    }

    @Test
    void shouldPrintTheNamespaceCommandOnADryRunWithoutRoot() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(config, CONFIG);

        Launcher.Result result = Launcher.run("run", "-c", config.toString(), "--dry-run", "--", "java", "Main");

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out())
                .contains("A: ip netns exec ffj1 java Main --DFF_GName=A --DFF_Config=" + config.toAbsolutePath()
                        + " --DFF_Report\n");
    }
}
