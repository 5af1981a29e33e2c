package org.fastflowj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MainTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "filesearch",
                "fig5",
                "wordcount",
                "wordcount-gen",
                "clickwindows",
                "masterworker",
                "matsquare",
                "imagefilter",
                "mandelbrot",
                "swsearch",
                "swsearch-gen",
                "a2abw"
            })
    void shouldPrintHelpForEveryApplication(String app) {
        CommandLine commandLine = Main.commandLine(new ByteArrayOutputStream());
        StringWriter help = new StringWriter();
        commandLine.setOut(new PrintWriter(help, true));

        int exitCode = commandLine.execute(app, "--help");

        assertThat(exitCode).isZero();
        assertThat(help.toString()).startsWith("Usage: ff-examples " + app).contains("--help");
    }

    @ParameterizedTest
    @ValueSource(strings = {"filesearch", "wordcount-gen", "a2abw"})
    void shouldRegisterOnlyTheApplicationItsArgumentsName(String app) {
        CommandLine commandLine = Main.commandLine(new ByteArrayOutputStream(), new String[] {app, "--help"});

        assertThat(commandLine.getSubcommands()).containsOnlyKeys(app);
    }

    @ParameterizedTest
    @ValueSource(strings = {"filesearc", "--help", "-h"})
    void shouldRegisterEveryApplicationForAnyOtherFirstWord(String first) {
        CommandLine commandLine = Main.commandLine(new ByteArrayOutputStream(), new String[] {first});

        assertThat(commandLine.getSubcommands()).containsOnlyKeys(Main.applicationNames());
    }

    @Test
    void shouldNameEveryApplicationAsItsCommandDoes() {
        // A name in Main's table that differs from the command's own would never select it alone.
        for (String app : Main.applicationNames()) {
            assertThat(Main.commandLine(new ByteArrayOutputStream(), new String[] {app})
                            .getSubcommands())
                    .containsOnlyKeys(app);
        }
        assertThat(Main.applicationNames()).hasSize(13);
    }
}
