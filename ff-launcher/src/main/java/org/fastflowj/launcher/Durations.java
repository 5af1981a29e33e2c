package org.fastflowj.launcher;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as people type them on a command line: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h};
 * a bare number is seconds.
 *
 * <p>Threading: stateless.
 */
public final class Durations implements ITypeConverter<Duration> {
    private static final Pattern FORMAT = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        Matcher m = FORMAT.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException(
                    "'" + value + "' is not a duration; expected a number with ms, s, m or h (like 30s)");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    /** {@code 1500 ms} as {@code 1.5 s}, whole seconds as {@code 30 s}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms < 1000 ? ms + " ms" : (ms / 1000.0) + " s";
    }
}
