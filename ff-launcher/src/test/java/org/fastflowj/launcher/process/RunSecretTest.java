package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.GroupSecrets;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.LauncherProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every run hands its groups a fresh secret in {@code DFF_Secret}, never on a command line. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RunSecretTest {
    @TempDir
    Path dir;

    @Test
    void shouldGenerate43CharactersOfBase64UrlFromFreshRandomBytes() {
        String secret = RunSecret.generate();
        assertThat(secret).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(RunSecret.generate()).isNotEqualTo(secret);
    }

    @Test
    void shouldHandEveryGroupOfARunTheSameSecretAndTheNextRunAnotherOne() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        String[] args =
                Launcher.args(List.of("run", "-c", config.toString(), "--timeout", "60s"), Launcher.sumApp("10"));
        Launcher.Result first = Launcher.run(args);
        Launcher.Result second = Launcher.run(args);
        try {
            assertThat(first.code()).as(first.toString()).isZero();
            assertThat(second.code()).as(second.toString()).isZero();
            Map<String, String> firstSecrets = GroupSecrets.described(first.out());
            Map<String, String> secondSecrets = GroupSecrets.described(second.out());
            assertThat(firstSecrets).as(first.toString()).containsOnlyKeys("A", "B", "C");
            assertThat(firstSecrets.values()).allMatch(s -> s.startsWith("43 chars, sha256 "));
            assertThat(firstSecrets.values()).containsOnly(firstSecrets.get("A"));
            assertThat(secondSecrets.values()).as(second.toString()).containsOnly(secondSecrets.get("A"));
            assertThat(secondSecrets.get("A")).isNotEqualTo(firstSecrets.get("A"));
        } finally {
            Launcher.killAll(first.pids());
            Launcher.killAll(second.pids());
        }
    }

    @Test
    void shouldHandOutNoSecretWhenTheConfigNamesItsOwn() throws Exception {
        Files.writeString(dir.resolve("secret.txt"), "the config's own secret\n");
        Path config = Launcher.config(dir, "127.0.0.1");
        Files.writeString(config, Files.readString(config).replaceFirst("\\{", "{\"secretFile\": \"secret.txt\","));
        Launcher.Result result = Launcher.run(
                Launcher.args(List.of("run", "-c", config.toString(), "--timeout", "60s"), Launcher.sumApp("10")));
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(GroupSecrets.described(result.out()))
                    .as(result.toString())
                    .containsOnly(Map.entry("A", "none"), Map.entry("B", "none"), Map.entry("C", "none"));
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldKeepTheSecretOffEveryCommandLine() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1", "", "\"preCmd\": \"env FF_PRE=1\"");
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.sumApp("1000000", "-1", "10000"));
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            List<Long> pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 30));
            launcher.awaitLine(l -> l.contains("[C] C secret:"), 30);
            String secret = GroupSecrets.fromEnvironment(pids.get(0));
            assertThat(secret).hasSize(43);
            assertThat(GroupSecrets.fromEnvironment(pids.get(2))).isEqualTo(secret);
            assertThat(GroupSecrets.commandLinesContaining(secret)).isEmpty();
            assertThat(launcher.output()).doesNotContain(secret);
        }
    }
}
