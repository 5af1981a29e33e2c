package org.fastflowj.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.LocalHosts;
import org.fastflowj.launcher.hosts.RemoteOptions;
import org.junit.jupiter.api.Test;

/** The commands the planner gives groups started in a network namespace, next to a local one. */
class LaunchPlannerTest {
    private static final String CONFIG =
            """
            {"groups": [
              {"name": "A", "endpoint": "10.213.0.1:9001", "host": "netns:ffj1"},
              {"name": "B", "endpoint": "10.213.0.2:9001", "host": "netns:ffj2", "preCmd": "taskset -c 0"},
              {"name": "C", "endpoint": "127.0.0.1:9003"}
            ]}
            """;

    private static DffConfig config() {
        return DffConfig.parse(CONFIG, "app.json");
    }

    @Test
    void shouldStartANamespaceGroupAsIpNetnsExecOfTheLocalCommand() {
        List<GroupLaunch> launches = new LaunchPlanner(
                        config(),
                        Path.of("/x/app.json"),
                        List.of("java", "-cp", "app.jar", "Main"),
                        new RemoteOptions(),
                        LocalHosts.detect(),
                        Duration.ofSeconds(5))
                .plan();

        GroupLaunch a = launches.get(0);
        assertThat(a.argv())
                .containsExactly(
                        "ip",
                        "netns",
                        "exec",
                        "ffj1",
                        "java",
                        "-cp",
                        "app.jar",
                        "Main",
                        "--DFF_GName=A",
                        "--DFF_Config=/x/app.json",
                        "--DFF_Report");
        assertThat(a.remote()).as("a namespace group is watched as a local one").isFalse();
        assertThat(a.where()).isEqualTo("netns ffj1");
        GroupLaunch b = launches.get(1);
        assertThat(b.argv().subList(0, 6)).containsExactly("ip", "netns", "exec", "ffj2", "/bin/sh", "-c");
        assertThat(b.argv().get(6)).startsWith("taskset -c 0 java -cp app.jar Main --DFF_GName=B");
        assertThat(launches.get(2).where()).isEqualTo("local");
    }
}
