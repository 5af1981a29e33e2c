package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class DffConfigSecretTest {
    private static final String GROUPS = "\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]";

    @TempDir
    Path dir;

    private DffConfig configWithSecretFile(String secretFile) throws Exception {
        Path file = dir.resolve("app.json");
        Files.writeString(file, "{ " + GROUPS + ",\n  \"secretFile\": \"" + secretFile + "\" }");
        return DffConfig.load(file);
    }

    @Test
    void shouldReadTheSecretFileRelativeToTheConfigDroppingOneTrailingNewline() throws Exception {
        Files.writeString(dir.resolve("secret.txt"), "s3cret \n\n");

        DffConfig config = configWithSecretFile("secret.txt");

        assertThat(config.secret()).hasValueSatisfying(secret -> assertThat(new String(secret, StandardCharsets.UTF_8))
                .isEqualTo("s3cret \n"));
    }

    @Test
    void shouldDropAWindowsLineEndAfterTheSecret() throws Exception {
        Files.writeString(dir.resolve("secret.txt"), "abc\r\n");

        assertThat(configWithSecretFile("secret.txt").secret()).hasValue("abc".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReportAMissingSecretFileAtItsKey() throws Exception {
        DffConfig config = configWithSecretFile("nope.txt");

        assertThatThrownBy(config::secret)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("app.json:2:17: secretFile: cannot read the secret file "
                        + dir.toAbsolutePath().resolve("nope.txt") + ": ");
    }

    @Test
    void shouldRejectAnEmptySecretFile() throws Exception {
        Files.writeString(dir.resolve("secret.txt"), "\n");
        DffConfig config = configWithSecretFile("secret.txt");

        assertThatThrownBy(config::secret)
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:2:17: secretFile: the secret file "
                        + dir.toAbsolutePath().resolve("secret.txt") + " is empty; expected the shared secret");
    }

    @Test
    void shouldReportAMissingEnvironmentVariableByName() {
        String variable = "FFJ_TEST_SECRET_THAT_IS_NEVER_SET";
        assertThat(System.getenv(variable)).isNull();
        DffConfig config = DffConfig.parse("{ " + GROUPS + ",\n  \"secretEnv\": \"" + variable + "\" }", "app.json");

        assertThat(config.secretEnv()).contains(variable);
        assertThatThrownBy(config::secret)
                .isInstanceOf(ConfigException.class)
                .hasMessage("app.json:2:16: secretEnv: the environment variable " + variable
                        + " is not set; expected the shared secret");
    }
}
