package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code checkpoints.restart.spareHosts}: its two forms, the addresses they give, and each way it can be wrong. */
@Timeout(30)
class SpareHostsConfigTest {
    private static final String GROUPS = "\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h1:9001\"},\n"
            + " {\"name\": \"G2\", \"endpoint\": \"10.0.1.2:9002\", \"host\": \"netns:ns1\"}]";

    private static List<CheckpointsConfig.SpareHost> spares(String spareHosts) {
        return parse(spareHosts).checkpoints().orElseThrow().restart().spareHosts();
    }

    private static DffConfig parse(String spareHosts) {
        return DffConfig.parse(
                "{" + GROUPS + ",\n\"checkpoints\": {\"directory\": \"d\", \"restart\": {\"spareHosts\": " + spareHosts
                        + "}}}",
                "app.json");
    }

    private static String error(String spareHosts) {
        return catchThrowableOfType(ConfigException.class, () -> parse(spareHosts))
                .getMessage();
    }

    @Test
    void shouldHaveNoSparesWithoutTheKey() {
        assertThat(DffConfig.parse("{" + GROUPS + ", \"checkpoints\": {\"directory\": \"d\"}}", "app.json")
                        .checkpoints()
                        .orElseThrow()
                        .restart()
                        .spareHosts())
                .isEmpty();
    }

    @Test
    void shouldReadHostsAndObjectsInOrder() {
        assertThat(spares("[\"h3\", \"me@h4\", {\"host\": \"netns:ns3\", \"address\": \"10.0.3.2\"},"
                        + " {\"host\": \"h5\", \"address\": \"fd00::5\"}]"))
                .containsExactly(
                        new CheckpointsConfig.SpareHost("h3", "h3"),
                        new CheckpointsConfig.SpareHost("me@h4", "h4"),
                        new CheckpointsConfig.SpareHost("netns:ns3", "10.0.3.2"),
                        new CheckpointsConfig.SpareHost("h5", "fd00::5"));
    }

    @Test
    void shouldGiveAMovedGroupItsOwnPortAtTheSparesAddress() {
        assertThat(new CheckpointsConfig.SpareHost("netns:ns3", "10.0.3.2").endpoint(9002))
                .isEqualTo("10.0.3.2:9002");
        assertThat(new CheckpointsConfig.SpareHost("h5", "fd00::5").endpoint(9002))
                .isEqualTo("[fd00::5]:9002");
    }

    @Test
    void shouldRefuseASpareThatIsTheHostOfAGroup() {
        assertThat(error("[\"h1\"]"))
                .isEqualTo("app.json:3:62: checkpoints.restart.spareHosts[0]: spare host \"h1\" is the host of"
                        + " group 'G1' (at 1:13); expected a host no group starts on, as a group moved there would"
                        + " share the machine it was moved off");
        assertThat(error("[{\"host\": \"netns:ns1\", \"address\": \"10.0.1.3\"}]"))
                .startsWith("app.json:3:62: checkpoints.restart.spareHosts[0]: spare host \"netns:ns1\" is the host"
                        + " of group 'G2' (at 2:2)");
    }

    @Test
    void shouldRefuseASpareListedTwice() {
        assertThat(error("[\"h3\", \"h3\"]"))
                .isEqualTo("app.json:3:68: checkpoints.restart.spareHosts[1]: spare host \"h3\" is listed twice"
                        + " (first at 3:62); expected each spare once");
    }

    @Test
    void shouldAskANamespaceSpareForItsAddress() {
        assertThat(error("[\"netns:ns3\"]"))
                .isEqualTo("app.json:3:62: checkpoints.restart.spareHosts[0]: spare \"netns:ns3\" needs the address"
                        + " its groups listen on, which other namespaces reach it by; expected {\"host\":"
                        + " \"netns:ns3\", \"address\": \"10.0.3.2\"}");
    }

    @Test
    void shouldRefuseWhatAGroupsHostKeyRefuses() {
        assertThat(error("[\"-oProxyCommand=x\"]"))
                .isEqualTo("app.json:3:62: checkpoints.restart.spareHosts[0]: \"-oProxyCommand=x\": a host (or"
                        + " user@host) must not start with '-', which ssh would read as an option; expected a host"
                        + " name or address");
        assertThat(error("[{\"host\": \"netsn:ns3\", \"address\": \"10.0.3.2\"}]"))
                .startsWith("app.json:3:71: checkpoints.restart.spareHosts[0].host: \"netsn:ns3\" is no host (did you"
                        + " mean 'netns:'?)");
    }

    @Test
    void shouldRefuseABadEntryOrAddress() {
        assertThat(error("\"h3\""))
                .isEqualTo("app.json:3:61: checkpoints.restart.spareHosts: expected an array of hosts (\"node7\","
                        + " {\"host\": \"netns:ffj3\", \"address\": \"10.0.3.2\"}), got \"h3\"");
        assertThat(error("[7]"))
                .isEqualTo("app.json:3:62: checkpoints.restart.spareHosts[0]: expected a host or an object with"
                        + " \"host\" and \"address\", got 7");
        assertThat(error("[{\"address\": \"10.0.3.2\"}]"))
                .isEqualTo("app.json:3:62: checkpoints.restart.spareHosts[0]: missing required key 'host'; expected"
                        + " the host the moved groups start on, as a group's \"host\"");
        assertThat(error("[{\"host\": \"h3\", \"address\": \"10.0.3.2:9\"}]"))
                .isEqualTo("app.json:3:88: checkpoints.restart.spareHosts[0].address: \"10.0.3.2:9\" is no address;"
                        + " expected a host name or an IP address without brackets or port, like \"10.0.3.2\" or"
                        + " \"fd00::3\"");
        assertThat(error("[{\"host\": \"h3\", \"adress\": \"10.0.3.2\"}]"))
                .startsWith("app.json:3:77: checkpoints.restart.spareHosts[0].adress: unknown key (did you mean"
                        + " 'address'?)");
    }
}
