package org.fastflowj.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The config and the machine's names read on a second thread while picocli parses the arguments. */
@Timeout(30)
class PrefetchTest {
    private static final String CONFIG =
            """
            {"groups": [{"name": "G1", "endpoint": "127.0.0.1:9001"}, {"name": "G2", "endpoint": "127.0.0.1:9002"}]}
            """;

    @TempDir
    Path dir;

    @Test
    void shouldGuessTheConfigOfARunOrACheckBeforeTheApplicationsCommand() {
        assertThat(Prefetch.guessConfig(new String[] {"run", "--no-status", "-c", "a.json", "--", "java", "App"}))
                .isEqualTo(Path.of("a.json"));
        assertThat(Prefetch.guessConfig(new String[] {"run", "--config=b.json", "java", "App"}))
                .isEqualTo(Path.of("b.json"));
        assertThat(Prefetch.guessConfig(new String[] {"check", "--config", "c.json"}))
                .isEqualTo(Path.of("c.json"));
        assertThat(Prefetch.guessConfig(new String[] {"run", "--", "java", "App", "-c", "app-own.json"}))
                .as("an option of the application's command is not the launcher's")
                .isNull();
        assertThat(Prefetch.guessConfig(new String[] {"--help"})).isNull();
        assertThat(Prefetch.guessConfig(new String[] {"run", "-c"})).isNull();
        assertThat(Prefetch.guessConfig(new String[0])).isNull();
    }

    @Test
    void shouldGiveTheConfigItReadAheadWhenPicocliNamesTheSameFile() throws Exception {
        Path config = Files.writeString(dir.resolve("app.json"), CONFIG);

        Prefetch prefetch = Prefetch.start(new String[] {"run", "-c", config.toString(), "--", "java", "App"});

        DffConfig read = prefetch.config(config);
        assertThat(read.groups()).extracting(GroupConfig::name).containsExactly("G1", "G2");
        assertThat(prefetch.config(config)).as("read once, ahead").isSameAs(read);
        assertThat(prefetch.localHosts().isLocal("localhost")).isTrue();
    }

    @Test
    void shouldReadAnotherFileItselfWhenTheGuessWasWrong() throws Exception {
        Path guessed = Files.writeString(dir.resolve("guessed.json"), "{ not json");
        Path actual = Files.writeString(dir.resolve("actual.json"), CONFIG);

        Prefetch prefetch = Prefetch.start(new String[] {"run", "-c", guessed.toString()});

        assertThat(prefetch.config(actual).groups()).hasSize(2);
    }

    @Test
    void shouldFailABadConfigWithTheMessageALoadOnTheMainThreadGives() throws Exception {
        Path config =
                Files.writeString(dir.resolve("bad.json"), "{\"groups\": [{\"name\": \"G1\", \"endpont\": \"x:1\"}]}");
        String expected;
        try {
            DffConfig.load(config);
            throw new AssertionError("the config is bad");
        } catch (ConfigException e) {
            expected = e.getMessage();
        }

        Prefetch prefetch = Prefetch.start(new String[] {"check", "--config", config.toString()});

        assertThatThrownBy(() -> prefetch.config(config))
                .isInstanceOf(ConfigException.class)
                .hasMessage(expected);
    }

    @Test
    void shouldReadEverythingWhenAskedWithoutAPrefetch() throws Exception {
        Path config = Files.writeString(dir.resolve("app.json"), CONFIG);

        Prefetch none = Prefetch.none();

        assertThat(none.config(config).groups()).hasSize(2);
        assertThat(none.localHosts().isLocal("127.0.0.1")).isTrue();
    }
}
