package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Arbitrary bytes as a config file, read as {@link DffConfig#load} reads one (strict UTF-8, then the
 * checks): either a config comes out or a {@link ConfigException} whose message starts with {@code
 * file:line:column:} inside the text; never another exception, never an error without a place.
 *
 * <p>In a normal build this replays the inputs in {@code DffConfigFuzzTestInputs/}; {@code fuzz.sh}
 * fuzzes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DffConfigFuzzTest {
    private static final String SOURCE = "fuzz.json";

    @FuzzTest(maxDuration = "5m")
    void shouldReadTheConfigOrBlameALineAndColumn(byte[] bytes) {
        DffConfig config;
        try {
            config = DffConfig.parse(ConfigText.decode(bytes, SOURCE), SOURCE);
        } catch (ConfigException e) {
            assertThat(e.line()).as("line of: %s", e.getMessage()).isPositive();
            assertThat(e.column()).as("column of: %s", e.getMessage()).isPositive();
            assertThat(e.line()).as("line of: %s", e.getMessage()).isLessThanOrEqualTo(lines(bytes));
            assertThat(e.getMessage()).startsWith(SOURCE + ":" + e.line() + ":" + e.column() + ": ");
            return;
        }
        assertThat(config.groups()).isNotEmpty();
        assertThat(config.source()).isEqualTo(SOURCE);
    }

    /** Lines as the parser counts them (\n, \r, \r\n), plus one for a position just past the end. */
    private static int lines(byte[] bytes) {
        int lines = 1;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 == bytes.length || bytes[i + 1] != '\n'))) {
                lines++;
            }
        }
        return lines + 1;
    }
}
