package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class DffConfigTest {
    private static final String FULL =
            """
            {
              "protocol": "TCP",
              "batchSize": 8,
              "messageOTF": 32,
              "internalMessageOTF": 16,
              "flushDelayMicros": 250,
              "connectTimeoutMs": 10000,
              "heartbeatIntervalMs": 500,
              "heartbeatTimeoutMs": 2500,
              "maxFrameBytes": 1048576,
              "secretFile": "secret.txt", "insecure": true,
              "tls": { "certFile": "certs/g.pem", "keyFile": "certs/g.key", "trustFile": "/etc/ca.pem", "enabled": false },
              "groups": [
                { "name": "G1", "endpoint": "node1:9000", "batchSize": 10, "messageOTF": 4,
                  "internalMessageOTF": 2, "flushDelayMicros": 0, "threadMapping": "0,2,4",
                  "preCmd": "module load java", "host": "login1", "jvmArgs": ["-Xmx2g", "-XX:+UseZGC"], "tlsName": "g1.internal" },
                { "name": "G2", "endpoint": "node2:9001" }
              ]
            }
            """;

    @Test
    void shouldReadEveryKeyOfAFullConfig(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.json");
        Files.writeString(file, FULL);

        DffConfig config = DffConfig.load(file);

        assertThat(config.source()).isEqualTo("app.json");
        assertThat(config.protocol()).isEqualTo("TCP");
        assertThat(config.batchSize()).isEqualTo(8);
        assertThat(config.messageOTF()).isEqualTo(32);
        assertThat(config.internalMessageOTF()).isEqualTo(16);
        assertThat(config.flushDelayMicros()).isEqualTo(250);
        assertThat(config.connectTimeoutMs()).isEqualTo(10_000);
        assertThat(config.heartbeatIntervalMs()).isEqualTo(500);
        assertThat(config.heartbeatTimeoutMs()).isEqualTo(2_500);
        assertThat(config.maxFrameBytes()).isEqualTo(1_048_576);
        assertThat(config.secretFile()).contains(dir.toAbsolutePath().resolve("secret.txt"));
        assertThat(config.secretEnv()).isEmpty();
        assertThat(config.tls())
                .contains(new TlsConfig(
                        dir.toAbsolutePath().resolve("certs/g.pem"),
                        dir.toAbsolutePath().resolve("certs/g.key"),
                        Path.of("/etc/ca.pem"),
                        false));

        assertThat(config.groups()).extracting(GroupConfig::name).containsExactly("G1", "G2");
        assertThat(config.groups().get(0))
                .isEqualTo(new GroupConfig(
                        "G1",
                        "node1:9000",
                        "node1",
                        9000,
                        "login1",
                        10,
                        4,
                        2,
                        0,
                        32L << 20,
                        "0,2,4",
                        Optional.of("module load java"),
                        List.of("-Xmx2g", "-XX:+UseZGC"),
                        Optional.of("g1.internal"),
                        14,
                        5,
                        Optional.empty()));
        assertThat(config.groups().get(0).threadMappingCpus()).containsExactly(0, 2, 4);
        assertThat(config.groups().get(0).tlsIdentity()).isEqualTo("g1.internal");
        assertThat(config.groups().get(1).tlsIdentity()).isEqualTo("node2");
        assertThat(config.insecure()).isTrue();
    }

    @Test
    void shouldGiveGroupsWithoutOverridesTheTopLevelValues() {
        GroupConfig g2 = DffConfig.parse(FULL, "app.json").group("G2").orElseThrow();

        assertThat(g2.batchSize()).isEqualTo(8);
        assertThat(g2.messageOTF()).isEqualTo(32);
        assertThat(g2.internalMessageOTF()).isEqualTo(16);
        assertThat(g2.flushDelayMicros()).isEqualTo(250);
        assertThat(g2.launchHost()).isEqualTo("node2");
        assertThat(g2.threadMapping()).isEmpty();
        assertThat(g2.threadMappingCpus()).isEmpty();
        assertThat(g2.preCmd()).isEmpty();
        assertThat(g2.jvmArgs()).isEmpty();
        assertThat(g2.line()).isEqualTo(17);
        assertThat(g2.column()).isEqualTo(5);
    }

    @Test
    void shouldFallBackToDefaultsWhenOnlyGroupsAreGiven() {
        DffConfig config =
                DffConfig.parse("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"localhost:9000\"}]}", "min.json");

        assertThat(config.protocol()).isEqualTo("TCP");
        assertThat(config.batchSize()).isEqualTo(GroupConfig.AUTO_BATCH_SIZE); // "auto": sized by the observed rate
        assertThat(config.messageOTF()).isEqualTo(256);
        assertThat(config.internalMessageOTF()).isEqualTo(256);
        assertThat(config.flushDelayMicros()).isEqualTo(100);
        assertThat(config.connectTimeoutMs()).isEqualTo(30_000);
        assertThat(config.heartbeatIntervalMs()).isEqualTo(1_000);
        assertThat(config.heartbeatTimeoutMs()).isEqualTo(5_000);
        assertThat(config.maxFrameBytes()).isEqualTo(67_108_864);
        assertThat(config.tls()).isEmpty();
        assertThat(config.secretFile()).isEmpty();
        assertThat(config.secret()).isEmpty();
        assertThat(config.insecure()).isFalse();
        GroupConfig g1 = config.groups().get(0);
        assertThat(g1.adaptiveBatching()).isTrue();
        assertThat(g1.messageOTF()).isEqualTo(256);
        assertThat(g1.internalMessageOTF()).isEqualTo(256);
        assertThat(g1.flushDelayMicros()).isEqualTo(100);
    }

    @Test
    void shouldLetEachGroupOverrideOnlyWhatItNames() {
        DffConfig config = DffConfig.parse(
                """
                { "batchSize": 5,
                  "groups": [ { "name": "A", "endpoint": "h:1", "messageOTF": 3 },
                              { "name": "B", "endpoint": "h:2", "batchSize": 50, "flushDelayMicros": 7 } ] }
                """,
                "o.json");

        GroupConfig a = config.group("A").orElseThrow();
        GroupConfig b = config.group("B").orElseThrow();
        assertThat(List.of(a.batchSize(), a.messageOTF(), b.batchSize(), b.messageOTF()))
                .containsExactly(5, 3, 50, GroupConfig.DEFAULT_MESSAGE_OTF);
        assertThat(a.flushDelayMicros()).isEqualTo(100);
        assertThat(b.flushDelayMicros()).isEqualTo(7);
    }

    @Test
    void shouldBoundEachIncomingLinkTo32MiBUnlessTheConfigSaysOtherwise() {
        DffConfig config = DffConfig.parse(
                """
                { "maxBufferedBytesPerLink": 8388608,
                  "groups": [ { "name": "A", "endpoint": "h:1" },
                              { "name": "B", "endpoint": "h:2", "maxBufferedBytesPerLink": 1048576 } ] }
                """,
                "m.json");
        DffConfig defaults = DffConfig.parse("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]}", "d.json");

        assertThat(config.group("A").orElseThrow().maxBufferedBytesPerLink()).isEqualTo(8L << 20);
        assertThat(config.group("B").orElseThrow().maxBufferedBytesPerLink()).isEqualTo(1L << 20);
        assertThat(defaults.groups().get(0).maxBufferedBytesPerLink()).isEqualTo(32L << 20);
    }

    @Test
    void shouldReadAnIpv6EndpointWithoutBracketsInTheHost() {
        GroupConfig g = DffConfig.parse("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"[::1]:9000\"}]}", "v6.json")
                .groups()
                .get(0);

        assertThat(g.host()).isEqualTo("::1");
        assertThat(g.port()).isEqualTo(9000);
        assertThat(g.endpoint()).isEqualTo("[::1]:9000");
        assertThat(g.launchHost()).isEqualTo("::1");
        assertThat(g.address()).isEqualTo(InetSocketAddress.createUnresolved("::1", 9000));
        assertThat(g.address().isUnresolved()).isTrue();
    }

    @Test
    void shouldReportAMissingConfigFileByName(@TempDir Path dir) {
        assertThatThrownBy(() -> DffConfig.load(dir.resolve("app.json")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("app.json: cannot read the config: NoSuchFileException");
    }

    @Test
    void shouldFindGroupsByNameAndNothingForAnUnknownName() {
        DffConfig config = DffConfig.parse(FULL, "app.json");

        assertThat(config.group("G2")).map(GroupConfig::port).contains(9001);
        assertThat(config.group("G3")).isEmpty();
    }
}
