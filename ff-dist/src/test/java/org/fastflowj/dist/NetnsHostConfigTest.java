package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code host} key's {@code netns:NAME} form: a group started in a network namespace of the launcher's machine. */
@Timeout(30)
class NetnsHostConfigTest {
    private static GroupConfig group(String host) {
        return DffConfig.parse(
                        "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"10.213.0.1:9000\", \"host\": \"" + host
                                + "\"}]}",
                        "app.json")
                .groups()
                .get(0);
    }

    private static ConfigException error(String host) {
        return catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\",\n  \"host\": \"" + host + "\"}]}",
                        "app.json"));
    }

    @Test
    void shouldReadANamespaceHostAsItsName() {
        GroupConfig g = group("netns:ffj1");

        assertThat(g.launchNamespace()).contains("ffj1");
        assertThat(g.launchHost()).isEqualTo("netns:ffj1");
        assertThat(g.host()).as("peers still reach the group at its endpoint").isEqualTo("10.213.0.1");
    }

    @ParameterizedTest
    @CsvSource({"node2", "10.0.0.7", "fe80::1", "fe80::1%eth0", "::1", "[::1]", "node2.example.org"})
    void shouldKeepAMachineHostAMachine(String host) {
        GroupConfig g = group(host);

        assertThat(g.launchNamespace()).isEmpty();
        assertThat(g.launchHost()).isEqualTo(host);
    }

    @Test
    void shouldDefaultToTheEndpointHostWhichIsNoNamespace() {
        GroupConfig g = DffConfig.parse("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"netns:9000\"}]}", "a.json")
                .groups()
                .get(0);

        assertThat(g.launchHost()).isEqualTo("netns");
        assertThat(g.launchNamespace()).isEmpty();
    }

    @Test
    void shouldSuggestNetnsForAMisspeltForm() {
        assertThat(error("netsn:ffj1"))
                .hasMessage("app.json:2:11: groups[0].host: \"netsn:ffj1\" is no host (did you mean 'netns:'?);"
                        + " expected a host name or address (the port is the endpoint's), or \"netns:NAME\" to start"
                        + " the group in network namespace NAME of the launcher's machine");
        assertThat(error("NETNS:ffj1")).hasMessageContaining("(did you mean 'netns:'?)");
    }

    @Test
    void shouldRejectAHostWithAPortWithoutSuggestingANamespace() {
        ConfigException e = error("node2:22");

        assertThat(e).hasMessageStartingWith("app.json:2:11: groups[0].host: \"node2:22\" is no host;");
        assertThat(e).hasMessageNotContaining("did you mean");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "netns:        | no namespace name",
                "netns:a/b     | 'a/b' is not a network namespace name",
                "netns:..      | '..' is not a network namespace name",
                "netns:-x      | '-x' is not a network namespace name",
                "netns:ffj 1   | 'ffj 1' is not a network namespace name",
            })
    void shouldRejectABadNamespaceNameSayingWhy(String host, String problem) {
        assertThat(error(host))
                .hasMessage("app.json:2:11: groups[0].host: \"" + host + "\": " + problem
                        + "; expected \"netns:NAME\", NAME of letters, digits, '_', '.' and '-' as `ip netns list`"
                        + " shows it");
    }

    @Test
    void shouldStillSuggestTheHostKeyItself() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\", \"hots\": \"netns:ffj1\"}]}",
                        "app.json"));

        assertThat(e).hasMessageContaining("groups[0].hots: unknown key (did you mean 'host'?)");
    }
}
