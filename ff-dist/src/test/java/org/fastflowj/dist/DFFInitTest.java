package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** DFF.init: FastFlow's options and environment variables, taken out of the program's arguments. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DFFInitTest {
    @TempDir
    Path dir;

    private Path config;

    @BeforeEach
    void writeConfig() throws Exception {
        config = Files.writeString(
                dir.resolve("app.json"),
                "{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"127.0.0.1:9001\"},"
                        + " {\"name\": \"G2\", \"endpoint\": \"127.0.0.1:9002\"}]}");
    }

    @AfterEach
    void reset() {
        DFF.reset();
    }

    @Test
    void shouldTakeTheGroupAndConfigOptionsOutOfTheArguments() {
        String[] rest = DFF.init(
                new String[] {"--in", "x.txt", "--DFF_GName=G2", "--DFF_Config", config.toString(), "-v"}, Map.of());

        assertThat(rest).containsExactly("--in", "x.txt", "-v");
        assertThat(DFF.group()).contains("G2");
        assertThat(DFF.config()).isPresent();
        assertThat(DFF.settings().group()).isEqualTo("G2");
    }

    @Test
    void shouldReadTheEnvironmentLikeFastFlow() {
        String[] rest = DFF.init(new String[] {"a"}, Map.of("DFF_GName", "G1", "DFF_Config", config.toString()));

        assertThat(rest).containsExactly("a");
        assertThat(DFF.group()).contains("G1");
    }

    @Test
    void shouldPublishTheGroupForLogPatterns() {
        DFF.init(new String[] {"--DFF_GName=G2", "--DFF_Config=" + config}, Map.of());

        assertThat(System.getProperty(DFF.GROUP_PROPERTY)).isEqualTo("G2");
        DFF.reset();
        assertThat(System.getProperty(DFF.GROUP_PROPERTY)).isNull();
    }

    @Test
    void shouldTurnNettysFlightRecorderEventsOffForAGroupUnlessTheApplicationChose() {
        String before = System.getProperty(NettyDefaults.JFR_PROPERTY);
        try {
            System.clearProperty(NettyDefaults.JFR_PROPERTY);
            DFF.init(new String[] {"a"}, Map.of());
            assertThat(System.getProperty(NettyDefaults.JFR_PROPERTY))
                    .as("a program run whole uses no Netty of ff-dist's")
                    .isNull();

            DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());
            assertThat(System.getProperty(NettyDefaults.JFR_PROPERTY)).isEqualTo("false");

            System.setProperty(NettyDefaults.JFR_PROPERTY, "true");
            DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());
            assertThat(System.getProperty(NettyDefaults.JFR_PROPERTY)).isEqualTo("true");
        } finally {
            if (before == null) {
                System.clearProperty(NettyDefaults.JFR_PROPERTY);
            } else {
                System.setProperty(NettyDefaults.JFR_PROPERTY, before);
            }
        }
    }

    @Test
    void shouldTakeTheReportOptionOutOfTheArgumentsAndRememberIt() {
        assertThat(DFF.init(new String[] {"a"}, Map.of())).containsExactly("a");
        assertThat(DFF.reportRequested()).isFalse();

        String[] rest =
                DFF.init(new String[] {"a", DFF.REPORT_OPTION, "--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());

        assertThat(rest).containsExactly("a");
        assertThat(DFF.reportRequested()).isTrue();
        DFF.reset();
        assertThat(DFF.reportRequested()).isFalse();
    }

    @Test
    void shouldTakeWhereTheCheckpointsStartFromTheLaunchersVariablesOrTheOptions() {
        String[] rest = DFF.init(
                new String[] {"a"},
                Map.of(
                        "DFF_GName",
                        "G1",
                        "DFF_Config",
                        config.toString(),
                        DFF.RESUME_ENV,
                        "7",
                        DFF.CHECKPOINTS_AFTER_ENV,
                        "9"));

        assertThat(rest).containsExactly("a");
        assertThat(DFF.checkpointStart()).isEqualTo(new CheckpointStart(7, 9));
        assertThat(DFF.checkpointStart().resumes()).isTrue();

        DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of(DFF.CHECKPOINTS_AFTER_ENV, "4"));
        assertThat(DFF.checkpointStart()).isEqualTo(new CheckpointStart(-1, 4));
        assertThat(DFF.checkpointStart().resumes()).isFalse();
        assertThat(DFF.Settings.fromArgs(
                                "--DFF_GName=G1",
                                "--DFF_Config=" + config,
                                "--DFF_Resume=0",
                                "--DFF_CheckpointsAfter=3")
                        .checkpointStart())
                .isEqualTo(new CheckpointStart(0, 3));
    }

    @Test
    void shouldStartAfreshWithoutTheResumeNumber() {
        DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());
        assertThat(DFF.checkpointStart()).isEqualTo(CheckpointStart.UNKNOWN);
        DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of(DFF.RESUME_ENV, ""));
        assertThat(DFF.checkpointStart().resumes()).isFalse();
    }

    @Test
    void shouldRefuseAResumeThatIsNoCheckpointNumber() {
        assertThatThrownBy(() -> DFF.init(
                        new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of(DFF.RESUME_ENV, "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DFF_Resume is \"yes\"; expected a checkpoint number, 0 or more (or leave it unset)");
        assertThatThrownBy(() -> DFF.init(new String[] {"--DFF_Resume=-2"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--DFF_Resume is \"-2\"");
        assertThatThrownBy(() -> DFF.init(new String[] {"--DFF_Resume"}, Map.of()))
                .hasMessageContaining("needs a checkpoint number");
    }

    @Test
    void shouldRunWholeWithoutAGroup() {
        assertThat(DFF.init(new String[] {"a", "b"}, Map.of())).containsExactly("a", "b");
        assertThat(DFF.group()).isEmpty();
        assertThat(DFF.settings().group()).isNull();
    }

    @Test
    void shouldRefuseAGroupWithoutAConfig() {
        assertThatThrownBy(() -> DFF.init(new String[] {"--DFF_GName=G1"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no config is given");
    }

    @Test
    void shouldRefuseAGroupTheConfigDoesNotDefine() {
        assertThatThrownBy(() -> DFF.init(new String[] {"--DFF_GName=G7", "--DFF_Config=" + config}, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("app.json")
                .hasMessageContaining("G7")
                .hasMessageContaining("[G1, G2]");
    }

    @Test
    void shouldRefuseAnOptionWithoutAValue() {
        assertThatThrownBy(() -> DFF.init(new String[] {"--DFF_Config"}, Map.of()))
                .hasMessageContaining("--DFF_Config needs a value");
    }

    @Test
    void shouldMakeSettingsOfTheirOwnFromArgumentsAlone() {
        DFF.Settings settings =
                DFF.Settings.fromArgs("x", "--DFF_GName=G2", "--DFF_Config=" + config, DFF.REPORT_OPTION);

        assertThat(settings.group()).isEqualTo("G2");
        assertThat(settings.config().groups()).hasSize(2);
        assertThat(settings.report()).isTrue();
        assertThat(settings.printGroups()).isFalse();
        assertThat(settings.serialization().programPackages()).containsExactly("org.fastflowj.dist");
        assertThat(DFF.group()).as("the process's settings stay").isEmpty();
        assertThat(System.getProperty(DFF.GROUP_PROPERTY)).isNull();
    }

    @Test
    void shouldBindSettingsToTheThreadUntilClosedAndThenRestoreTheOnesBefore() {
        DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());
        DFF.Settings g2 = DFF.Settings.fromArgs("--DFF_GName=G2", "--DFF_Config=" + config);

        DFF.Binding outer = g2.bind();
        assertThat(DFF.group()).contains("G2");
        DFF.register(Point.class);
        assertThat(DFF.settings().serialization().registeredTypes()).containsExactly(Point.class);
        DFF.Settings.none().run(() -> assertThat(DFF.group()).isEmpty());
        assertThat(DFF.group()).contains("G2");
        outer.close();

        assertThat(DFF.group()).contains("G1");
        assertThat(DFF.settings().serialization().registeredTypes())
                .as("registered on the bound settings only")
                .isEmpty();
        assertThat(g2.serialization().registeredTypes())
                .as("settings are values")
                .isEmpty();
    }

    record Point(int x, int y) {}

    @Test
    void shouldRefuseToCloseABindingOnAnotherThread() throws Exception {
        DFF.Binding binding = DFF.Settings.none().bind();
        try {
            Throwable[] thrown = new Throwable[1];
            Thread other = new Thread(() -> {
                try {
                    binding.close();
                } catch (Throwable t) {
                    thrown[0] = t;
                }
            });
            other.start();
            other.join();
            assertThat(thrown[0])
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("close them on the thread that bound them");
        } finally {
            binding.close();
        }
    }

    @Test
    void shouldKeepWhatWasRegisteredBeforeInit() {
        DFF.checkSerialization(true);
        DFF.register(Point.class);

        DFF.init(new String[] {"--DFF_GName=G1", "--DFF_Config=" + config}, Map.of());

        assertThat(DFF.settings().checkSerialization()).isTrue();
        assertThat(DFF.settings().serialization().registeredTypes()).containsExactly(Point.class);
    }

    @Test
    void shouldRefuseSettingsWhoseGroupTheConfigDoesNotDefine() {
        DffConfig loaded = DffConfig.load(config);

        assertThatThrownBy(() -> new DFF.Settings("G7", loaded, SerializationConfig.defaults(), false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'G7' is not defined in the config (defined: [G1, G2])");
        assertThatThrownBy(() -> new DFF.Settings("G1", null, SerializationConfig.defaults(), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no config is given");
    }
}
