package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The first write error of an output, kept with its cause behind the printers that swallow it. The whole
 * processes (a pipe whose reader left, a full disk) are in ff-examples' StandardOutputTest and
 * ff-launcher's LauncherOutputTest.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CheckedOutputTest {
    /** Takes {@code room} bytes, then fails every write as a full disk does. */
    private static final class FillingUp extends OutputStream {
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        private int room;
        private int failures;

        FillingUp(int room) {
            this.room = room;
        }

        @Override
        public void write(int b) throws IOException {
            if (room == 0) {
                failures++;
                throw new IOException(failures == 1 ? "No space left on device" : "failure " + failures);
            }
            room--;
            taken.write(b);
        }
    }

    @Test
    void shouldNameTheOutputAndTheFirstErrorBehindAPrintStream() {
        FillingUp disk = new FillingUp(8);
        PrintStream out = CheckedOutput.of(disk, "standard output").printStream();

        out.println("1234567");
        assertThat(CheckedOutput.failureOf(out)).isNull();
        out.println("more than fits");
        out.println("and more");

        assertThat(CheckedOutput.failureOf(out)).isEqualTo("cannot write to standard output: No space left on device");
        assertThat(disk.taken.toString(StandardCharsets.UTF_8)).startsWith("1234567");
    }

    @Test
    void shouldNameTheOutputAndTheFirstErrorBehindAPrintWriter() {
        PrintWriter err = CheckedOutput.of(new FillingUp(0), "standard error").printWriter();

        err.println("lost");

        assertThat(CheckedOutput.failureOf(err)).isEqualTo("cannot write to standard error: No space left on device");
    }

    @Test
    void shouldSayNothingOfAnOutputThatTookEverything() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        PrintStream out = CheckedOutput.of(all, "standard output").printStream();

        out.print("no newline yet");

        assertThat(CheckedOutput.failureOf(out)).isNull();
        assertThat(all.toString(StandardCharsets.UTF_8))
                .as("checked after flushing")
                .isEqualTo("no newline yet");
    }

    @Test
    void shouldCallAPrinterItDidNotMakeTheOutput() {
        PrintWriter plain = new PrintWriter(new StringWriter()) {
            @Override
            public boolean checkError() {
                return true;
            }
        };

        assertThat(CheckedOutput.failureOf(plain)).isEqualTo("cannot write to the output: write error");
        assertThat(CheckedOutput.failureOf(new PrintWriter(new StringWriter()))).isNull();
    }
}
