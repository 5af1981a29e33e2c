package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A host the launcher passes to ssh: never one that ssh could read as an option. */
class SshHostConfigTest {
    private static final String WHY = "a host (or user@host) must not start with '-', which ssh would read as an"
            + " option; expected a host name or address";

    @ParameterizedTest
    @ValueSource(strings = {"-oProxyCommand=touch /tmp/pwned", "-p2222", "ff@-oProxyCommand=x", "-ff@node2"})
    void shouldRefuseAHostThatStartsWithADash(String host) {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\",\n  \"host\": \"" + host + "\"}]}",
                        "app.json"));

        assertThat(e).hasMessage("app.json:2:11: groups[0].host: \"" + host + "\": " + WHY);
    }

    @Test
    void shouldRefuseAnEndpointWhoseHostStartsWithADashSinceSshGoesThereWithoutAHost() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{\"groups\": [\n  {\"name\": \"G1\", \"endpoint\": \"-oProxyCommand=x:9000\"}]}", "app.json"));

        assertThat(e).hasMessage("app.json:2:30: groups[0].endpoint: \"-oProxyCommand=x:9000\": " + WHY);
    }

    @Test
    void shouldKeepAHostWithADashInside() {
        GroupConfig g = DffConfig.parse(
                        "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\", \"host\": \"ff@node-2\"}]}",
                        "app.json")
                .groups()
                .get(0);

        assertThat(g.launchHost()).isEqualTo("ff@node-2");
    }
}
