package org.fastflowj.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.CheckpointsConfig.SpareHost;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.LocalHosts;
import org.fastflowj.launcher.hosts.RemoteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The config of an attempt with moved groups: what changes in it, what does not, and who is given it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpareConfigTest {
    private static final String CONFIG =
            """
            {"tls": {"certFile": "c.pem", "keyFile": "k.pem", "trustFile": "t.pem"},
             "checkpoints": {"directory": "ckpt", "restart": {"spareHosts": [
                 {"host": "netns:s1", "address": "10.0.9.2"}, "node9"]}},
             "groups": [
              {"name": "A", "endpoint": "127.0.0.1:9001"},
              {"name": "B", "endpoint": "10.0.1.2:9002", "host": "netns:b"},
              {"name": "C", "endpoint": "node3:9003", "tlsName": "c.example"}
            ]}
            """;

    @TempDir
    Path dir;

    private SpareConfig spares(Path file) {
        DffConfig config = DffConfig.load(file);
        LaunchPlanner planner = new LaunchPlanner(
                config, file, List.of("java", "Main"), new RemoteOptions(), LocalHosts.detect(), Duration.ofSeconds(5));
        return new SpareConfig(config, file, planner);
    }

    @Test
    void shouldGiveEveryGroupACopyWhereTheMovedOnesRunOnTheirSpares() throws Exception {
        Path file = Files.writeString(dir.resolve("app.json"), CONFIG);
        try (SpareConfig spares = spares(file)) {
            List<GroupLaunch> launches = spares.plan(
                    Map.of("B", new SpareHost("netns:s1", "10.0.9.2"), "C", new SpareHost("node9", "node9")));

            Path copy = dir.resolve("app.spares-" + ProcessHandle.current().pid() + ".json");
            assertThat(launches).allSatisfy(l -> assertThat(l.commandLine()).contains("--DFF_Config=" + copy));
            assertThat(launches).extracting(GroupLaunch::where).containsExactly("local", "netns s1", "ssh node9");
            DffConfig moved = DffConfig.load(copy);
            GroupConfig b = moved.group("B").orElseThrow();
            assertThat(b.launchHost()).isEqualTo("netns:s1");
            assertThat(b.endpoint()).isEqualTo("10.0.9.2:9002");
            assertThat(b.tlsIdentity()).as("the name its certificate carries").isEqualTo("10.0.1.2");
            assertThat(moved.group("C").orElseThrow().tlsIdentity()).isEqualTo("c.example");
            assertThat(moved.group("A").orElseThrow().endpoint()).isEqualTo("127.0.0.1:9001");
            assertThat(moved.checkpoints().orElseThrow().restart().spareHosts())
                    .as("a spare taken is a spare no more")
                    .isEmpty();
            assertThat(moved.checkpoints().orElseThrow().directory())
                    .isEqualTo(DffConfig.load(file).checkpoints().orElseThrow().directory());
        }
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("app.json");
    }

    @Test
    void shouldNameTheCopyWhenItIsRefused() throws Exception {
        // Moving B to A's address would give two groups one endpoint.
        Path file = Files.writeString(dir.resolve("app.json"), CONFIG.replace("9002", "9001"));
        try (SpareConfig spares = spares(file)) {
            assertThatThrownBy(() -> spares.plan(Map.of("B", new SpareHost("netns:s1", "127.0.0.1"))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("the config with the moved groups, " + dir.resolve("app.spares-"))
                    .hasMessageContaining("is refused: ")
                    .hasMessageContaining("duplicate endpoint \"127.0.0.1:9001\"");
        }
    }
}
