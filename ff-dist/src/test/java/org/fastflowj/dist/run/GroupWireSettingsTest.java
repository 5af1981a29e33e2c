package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.net.WireSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Where a group's secret comes from, and the rule that no unauthenticated group listens where strangers are. */
@Timeout(30)
class GroupWireSettingsTest {
    private static final UnaryOperator<String> NO_ENV = name -> null;
    private static final UnaryOperator<String> LAUNCHED = Map.of("DFF_Secret", "per-run secret")::get;

    @TempDir
    Path dir;

    private static DffConfig config(String topLevel, String hostOfB) {
        return DffConfig.parse(
                "{" + topLevel + "\n \"groups\": [\n  {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9000\"},\n"
                        + "  {\"name\": \"B\", \"endpoint\": \"" + hostOfB + ":9001\"}]}",
                "app.json");
    }

    private static WireSettings settings(DffConfig config, UnaryOperator<String> env) {
        return GroupWireSettings.of(config, "A", 42L, 10_000, env);
    }

    @Test
    void shouldUseTheLaunchersSecretWhenTheConfigNamesNone() {
        WireSettings wire = settings(config("", "10.1.2.3"), LAUNCHED);

        assertThat(new String(wire.secretOrNull(), StandardCharsets.UTF_8)).isEqualTo("per-run secret");
    }

    @Test
    void shouldPreferTheConfigsOwnSecretToTheLaunchers() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "the config's\n");

        WireSettings wire = settings(config("\"secretFile\": \"" + secret + "\",", "10.1.2.3"), LAUNCHED);

        assertThat(new String(wire.secretOrNull(), StandardCharsets.UTF_8)).isEqualTo("the config's");
    }

    @Test
    void shouldRejectAnEmptyLauncherSecret() {
        assertThatThrownBy(() -> settings(config("", "127.0.0.1"), Map.of("DFF_Secret", "")::get))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("DFF_Secret is set but empty");
    }

    @Test
    void shouldRefuseToStartWithoutAnySecretWhenAnEndpointIsNotLoopback() {
        assertThatThrownBy(() -> settings(config("", "10.1.2.3"), NO_ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("app.json:4:3: groups[1].endpoint: group 'B' uses the non-loopback endpoint"
                        + " \"10.1.2.3:9001\" and group 'A' has no secret")
                .hasMessageContaining("launcher")
                .hasMessageContaining("DFF_Secret")
                .hasMessageContaining("secretFile or secretEnv")
                .hasMessageContaining("\"insecure\": true");
    }

    @Test
    void shouldRunWithoutSecretWhenEveryEndpointIsLoopback() {
        for (String host : new String[] {"127.0.0.1", "localhost", "[::1]", "127.3.4.5"}) {
            assertThat(settings(config("", host), NO_ENV).secretOrNull())
                    .as(host)
                    .isNull();
        }
    }

    @Test
    void shouldRunUnauthenticatedWithAWarningWhenTheConfigSaysInsecure() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        WireSettings wire;
        try {
            wire = settings(config("\"insecure\": true,", "10.1.2.3"), NO_ENV);
        } finally {
            System.setErr(original);
        }

        assertThat(wire.secretOrNull()).isNull();
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .contains("group A runs UNAUTHENTICATED (\"insecure\": true in app.json, no secret, no TLS)")
                .contains("10.1.2.3:9001");
    }

    @Test
    void shouldAcceptTlsWithoutSecretOnNonLoopbackEndpointsAndNameEachGroupsCertificate() {
        String tls = "\"tls\": {\"certFile\": \"a.pem\", \"keyFile\": \"a.key\", \"trustFile\": \"ca.pem\"},";
        DffConfig config = DffConfig.parse(
                "{" + tls
                        + " \"groups\": [{\"name\": \"A\", \"endpoint\": \"10.0.0.1:9000\", \"tlsName\": \"a.cluster\"},"
                        + " {\"name\": \"B\", \"endpoint\": \"b.cluster:9001\"}]}",
                "tls.json");

        WireSettings wire = settings(config, NO_ENV);

        assertThat(wire.tlsOrNull()).isNotNull();
        assertThat(wire.tlsNames()).isEqualTo(Map.of("A", "a.cluster", "B", "b.cluster"));
    }
}
