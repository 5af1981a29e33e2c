package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher gives picocli only the command it runs; the help and a typo still see every command. */
@Timeout(30)
class MainCommandsTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int launch(String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void shouldListEveryCommandInTheHelp() {
        assertThat(launch("--help")).isZero();

        assertThat(out.toString()).contains("run", "check", "help");
    }

    @Test
    void shouldShowARunCommandsOwnHelpUnderItsFullName() {
        assertThat(launch("run", "--help")).isZero();

        assertThat(out.toString()).startsWith("Usage: ff-launcher run ").contains("--no-cds");
    }

    @Test
    void shouldSuggestTheCommandAMistypedNameMeant() {
        int code = launch("rnu", "-c", "app.json");

        assertThat(code).isEqualTo(picocli.CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("rnu").contains("run");
    }

    @Test
    void shouldRunTheHelpCommandForACommand() {
        assertThat(launch("help", "check")).isZero();

        assertThat(out.toString()).startsWith("Usage: ff-launcher check ");
    }
}
