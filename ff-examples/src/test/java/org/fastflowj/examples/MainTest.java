package org.fastflowj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
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
}
