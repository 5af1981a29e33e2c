package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DffConfigRequireGroupsTest {
    private static final DffConfig CONFIG = DffConfig.parse(
            """
            {
              "groups": [
                { "name": "G1", "endpoint": "localhost:9001" },
                { "name": "G2", "endpoint": "localhost:9002" },
                { "name": "G3", "endpoint": "localhost:9003" }
              ]
            }
            """,
            "app.json");

    @Test
    void shouldAcceptTheSameGroupsInAnyOrder() {
        assertThatCode(() -> CONFIG.requireGroups(List.of("G3", "G1", "G2"))).doesNotThrowAnyException();
    }

    @Test
    void shouldRejectAGroupTheProgramUsesButTheConfigLacks() {
        assertThatThrownBy(() -> CONFIG.requireGroups(List.of("G1", "G2", "G3", "G5")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json: group 'G5' is used by the program but not defined in the config"
                        + " (defined: G1, G2, G3)");
    }

    @Test
    void shouldRejectAConfigGroupTheProgramDoesNotUseNamingWhereItIs() {
        assertThatThrownBy(() -> CONFIG.requireGroups(List.of("G1", "G3")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:4:5: group 'G2' is defined in the config but not used by the program");
    }
}
