package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code check}: the config alone, and the config against the program's groups. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameFileLineAndColumnOfABadValue() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\n  \"groups\": [\n    {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9000\", \"batchSize\": \"ten\"}\n  ]\n}\n");
        Launcher.Result result = Launcher.run("check", "-c", config.toString());
        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err()).startsWith("app.json:3:").contains("groups[0].batchSize");
    }

    @Test
    void shouldAcceptAConfigWhoseGroupsMatchTheProgram() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(args(config, Launcher.sumApp("10")));
        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out()).contains("A: 127.0.0.1:", "started locally", "the program's groups [A, B, C] match");
    }

    @Test
    void shouldNameEveryGroupOnOneSideOnlyWithItsLine() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\n  \"groups\": [\n"
                        + "    {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9001\"},\n"
                        + "    {\"name\": \"B\", \"endpoint\": \"127.0.0.1:9002\"},\n"
                        + "    {\"name\": \"X\", \"endpoint\": \"127.0.0.1:9003\"}\n  ]\n}\n");
        Launcher.Result result = Launcher.run(args(config, Launcher.sumApp("10")));
        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("app.json: group 'C' is used by the program but not defined in the config")
                .contains("app.json:5:5: group 'X' is defined in the config but not used by the program");
    }

    private static String[] args(Path config, List<String> command) {
        List<String> args = new ArrayList<>(List.of("check", "-c", config.toString(), "--"));
        args.addAll(command);
        return args.toArray(String[]::new);
    }
}
