package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The {@code checkpoints} object: its keys, their defaults, and each way it can be wrong. */
@Timeout(30)
class CheckpointsConfigTest {
    private static final String GROUPS = "\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]";

    @TempDir
    Path dir;

    private static DffConfig parse(String checkpoints) {
        return DffConfig.parse("{" + GROUPS + ",\n\"checkpoints\": " + checkpoints + "\n}", "app.json");
    }

    private static ConfigException error(String checkpoints) {
        return catchThrowableOfType(ConfigException.class, () -> parse(checkpoints));
    }

    @Test
    void shouldHaveNoCheckpointsWithoutTheKey() {
        assertThat(DffConfig.parse("{" + GROUPS + "}", "app.json").checkpoints())
                .isEmpty();
    }

    @Test
    void shouldFillInTheDefaults() {
        CheckpointsConfig c =
                parse("{\"directory\": \"/shared/ckpt\"}").checkpoints().orElseThrow();

        assertThat(c.directory()).isEqualTo(Path.of("/shared/ckpt"));
        assertThat(c.interval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.mode()).isEqualTo(CheckpointMode.EXACTLY_ONCE);
        assertThat(c.retained()).isEqualTo(3);
        assertThat(c.fullEvery()).as("every checkpoint whole").isEqualTo(1);
        assertThat(c.restartStrategy()).hasToString("fixedDelay(3 attempts, PT1S)");
    }

    @Test
    void shouldReadEveryKey() {
        CheckpointsConfig c = parse(
                        """
                        {"directory": "/shared/ckpt", "intervalMs": 250, "mode": "at-least-once", "retained": 5,
                         "fullEvery": 8, "restart": {"attempts": 4, "delayMs": 0, "failureRateWindowMs": 60000}}""")
                .checkpoints()
                .orElseThrow();

        assertThat(c.interval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.mode()).isEqualTo(CheckpointMode.AT_LEAST_ONCE);
        assertThat(c.retained()).isEqualTo(5);
        assertThat(c.fullEvery()).isEqualTo(8);
        assertThat(c.restartStrategy()).hasToString("failureRate(4 per PT1M, delay PT0S)");
        assertThat(c.restartStrategy().delay()).isZero();
        assertThat(c.restart())
                .isEqualTo(new CheckpointsConfig.Restart(4, Duration.ZERO, Optional.of(Duration.ofMinutes(1))));
    }

    @Test
    void shouldMakeAFixedNumberOfAttemptsWithoutAWindowAndNoneForZero() {
        assertThat(parse("{\"directory\": \"d\", \"restart\": {\"attempts\": 2, \"delayMs\": 10}}")
                        .checkpoints()
                        .orElseThrow()
                        .restartStrategy())
                .hasToString("fixedDelay(2 attempts, PT0.01S)");
        assertThat(parse("{\"directory\": \"d\", \"restart\": {\"attempts\": 0}}")
                        .checkpoints()
                        .orElseThrow()
                        .restartStrategy())
                .hasToString("none");
    }

    @Test
    void shouldResolveARelativeDirectoryAgainstTheConfigsFolder() throws Exception {
        Path file = Files.writeString(
                dir.resolve("app.json"), "{" + GROUPS + ", \"checkpoints\": {\"directory\": \"ckpt\"}}");

        assertThat(DffConfig.load(file).checkpoints().orElseThrow().directory())
                .isEqualTo(dir.toAbsolutePath().resolve("ckpt"));
    }

    @Test
    void shouldRequireTheDirectory() {
        assertThat(error("{\"intervalMs\": 100}"))
                .hasMessage("app.json:2:16: checkpoints: missing required key 'directory'; expected the path of"
                        + " the folder the checkpoints go to");
        assertThat(error("{\"directory\": \" \"}"))
                .hasMessage("app.json:2:30: checkpoints.directory: expected a non-empty string, got \" \"");
        assertThat(error("{\"directory\": 7}"))
                .hasMessage("app.json:2:30: checkpoints.directory: expected a string, got 7");
    }

    @Test
    void shouldRefuseAFullEveryBelowOne() {
        assertThat(error("{\"directory\": \"d\", \"fullEvery\": 0}")).hasMessageContaining("checkpoints.fullEvery");
    }

    @Test
    void shouldRefuseCheckpointsThatAreNoObject() {
        assertThat(error("\"ckpt\""))
                .hasMessage("app.json:2:16: checkpoints: expected an object with a \"directory\", got \"ckpt\"");
    }

    @Test
    void shouldSuggestTheKeyAMisspeltOneWasMeantToBe() {
        assertThat(error("{\"directory\": \"d\", \"intervallMs\": 5}"))
                .hasMessage("app.json:2:35: checkpoints.intervallMs: unknown key (did you mean 'intervalMs'?);"
                        + " allowed here: directory, intervalMs, mode, retained, fullEvery, restart");
        assertThat(error("{\"directory\": \"d\", \"restart\": {\"attempt\": 5}}"))
                .hasMessage("app.json:2:47: checkpoints.restart.attempt: unknown key (did you mean 'attempts'?);"
                        + " allowed here: attempts, delayMs, failureRateWindowMs, spareHosts");
    }

    @Test
    void shouldRefuseEachValueOutOfItsRange() {
        assertThat(error("{\"directory\": \"d\", \"intervalMs\": 0}"))
                .hasMessage("app.json:2:49: checkpoints.intervalMs: expected an integer >= 1, got 0");
        assertThat(error("{\"directory\": \"d\", \"retained\": 1}"))
                .hasMessage("app.json:2:47: checkpoints.retained: expected an integer >= 2, got 1");
        assertThat(error("{\"directory\": \"d\", \"restart\": {\"attempts\": -1}}"))
                .hasMessage("app.json:2:59: checkpoints.restart.attempts: expected an integer >= 0, got -1");
        assertThat(error("{\"directory\": \"d\", \"restart\": {\"delayMs\": -5}}"))
                .hasMessage("app.json:2:58: checkpoints.restart.delayMs: expected an integer >= 0, got -5");
        assertThat(error("{\"directory\": \"d\", \"restart\": {\"failureRateWindowMs\": 0}}"))
                .hasMessage("app.json:2:70: checkpoints.restart.failureRateWindowMs: expected an integer >= 1, got 0");
        assertThat(error("{\"directory\": \"d\", \"restart\": {\"delayMs\": 9223372036854775807}}"))
                .hasMessage("app.json:2:58: checkpoints.restart.delayMs: expected an integer <= 9223372036854,"
                        + " got 9223372036854775807");
        assertThat(error("{\"directory\": \"d\", \"restart\": 3}"))
                .hasMessage("app.json:2:46: checkpoints.restart: expected an object with attempts, delayMs,"
                        + " failureRateWindowMs and spareHosts, got 3");
    }

    @Test
    void shouldRefuseAnUnknownMode() {
        assertThat(error("{\"directory\": \"d\", \"mode\": \"exactly_once\"}"))
                .hasMessage("app.json:2:43: checkpoints.mode: unknown mode \"exactly_once\"; expected"
                        + " \"exactly-once\" or \"at-least-once\"");
    }

    @Test
    void shouldReportEveryProblemOfTheObjectAtOnce() {
        ConfigException e = error("{\"intervalMs\": 0, \"mode\": 1}");

        assertThat(e.problems())
                .extracting(ConfigException::getMessage)
                .containsExactly(
                        "app.json:2:16: checkpoints: missing required key 'directory'; expected the path of the folder"
                                + " the checkpoints go to",
                        "app.json:2:31: checkpoints.intervalMs: expected an integer >= 1, got 0",
                        "app.json:2:42: checkpoints.mode: expected a string, got 1");
    }
}
