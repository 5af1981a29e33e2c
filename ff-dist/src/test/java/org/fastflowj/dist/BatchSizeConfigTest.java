package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code "batchSize": "auto"}, at the top level and per group; any other string is refused where it stands. */
@Timeout(30)
class BatchSizeConfigTest {
    @Test
    void autoAtTheTopLevelOrPerGroup() {
        DffConfig config = DffConfig.parse(
                """
                { "batchSize": "auto",
                  "groups": [
                    { "name": "G1", "endpoint": "h:1" },
                    { "name": "G2", "endpoint": "h:2", "batchSize": 16 } ] }
                """,
                "app.json");

        GroupConfig g1 = config.group("G1").orElseThrow();
        GroupConfig g2 = config.group("G2").orElseThrow();
        assertThat(g1.adaptiveBatching()).isTrue();
        assertThat(g1.batchSize()).isEqualTo(GroupConfig.AUTO_BATCH_SIZE);
        assertThat(g1.maxBatchSize()).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
        assertThat(g2.adaptiveBatching()).isFalse();
        assertThat(g2.maxBatchSize()).isEqualTo(16);
        assertThat(config.batchSize()).isEqualTo(GroupConfig.AUTO_BATCH_SIZE);
    }

    @Test
    void aGroupMayAskForAutoUnderAFixedTopLevel() {
        DffConfig config = DffConfig.parse(
                """
                { "batchSize": 8,
                  "groups": [ { "name": "G1", "endpoint": "h:1", "batchSize": "auto" } ] }
                """,
                "app.json");

        assertThat(config.group("G1").orElseThrow().adaptiveBatching()).isTrue();
    }

    @Test
    void anyOtherStringIsRefusedWithItsPlace() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        """
                        {
                          "groups": [
                            { "name": "G1", "endpoint": "h:1",
                              "batchSize": "fast" } ] }
                        """,
                        "app.json"));

        assertThat(e)
                .hasMessage("app.json:4:20: groups[0].batchSize: expected an integer >= 1 or \"auto\", got \"fast\"");
        assertThat(e.line()).isEqualTo(4);
    }

    @Test
    void zeroIsStillRefusedAsAnInteger() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> DffConfig.parse(
                        "{ \"batchSize\": 0, \"groups\": [ { \"name\": \"G1\", \"endpoint\": \"h:1\" } ] }",
                        "app.json"));

        assertThat(e).hasMessageContaining("batchSize: expected an integer >= 1, got 0");
    }
}
