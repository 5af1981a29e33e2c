package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.fastflowj.core.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A group name is a file name of the launcher's --log-dir and an argument: checked where the config is read. */
class GroupNameConfigTest {
    private static final String RULE = "1 to 64 letters, digits, '_', '.' and '-', not starting with '.' or '-'";

    @ParameterizedTest
    @ValueSource(strings = {"../../../escaped", "/abs/path", "-x", ".hidden", "a/b", "", "a\\\\b", "..", "G 1", "é"})
    void shouldNameTheFileLineColumnAndTheRuleForANameThatIsNoGroupName(String name) {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{\"groups\": [\n  {\"name\": \"G1\", \"endpoint\": \"h:1\"},\n  {\"name\": \"" + name
                                + "\", \"endpoint\": \"h:2\"}]}",
                        "app.json"));

        assertThat(e).isNotNull();
        assertThat(e.getMessage())
                .startsWith("app.json:3:12: groups[1].name: \"")
                .contains(" is not a group name; expected " + RULE);
    }

    @Test
    void shouldTakeNamesOfTheDocumentedSet() {
        String longest = "a".repeat(64);
        DffConfig config = DffConfig.parse(
                "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}, {\"name\": \"_w-2.b\", \"endpoint\": \"h:2\"},"
                        + " {\"name\": \"" + longest + "\", \"endpoint\": \"h:3\"}]}",
                "app.json");

        assertThat(config.groups()).extracting(GroupConfig::name).containsExactly("G1", "_w-2.b", longest);
        assertThat(Group.NAME_RULE).isEqualTo(RULE);
        assertThat(Group.isValidName(longest + "a")).as("65 characters").isFalse();
    }
}
