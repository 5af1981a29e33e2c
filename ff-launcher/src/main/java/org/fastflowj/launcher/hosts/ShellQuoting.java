package org.fastflowj.launcher.hosts;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Quotes words for a POSIX shell ({@code sh}, {@code bash}, {@code dash}), so that a command given as a
 * list of arguments survives the trip through {@code sh -c} or an ssh command line unchanged.
 *
 * <p>Threading: stateless.
 */
public final class ShellQuoting {
    /** Words made only of these characters mean the same to every shell unquoted: keep them readable. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuoting() {}

    /** {@code word} as one shell word: unchanged if plain, else in single quotes. */
    public static String quote(String word) {
        if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
            return word;
        }
        // Inside single quotes nothing is special except the quote itself, which must close the
        // quoted part, appear escaped, and reopen it.
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Every word quoted and joined by spaces. */
    public static String join(List<String> words) {
        return words.stream().map(ShellQuoting::quote).collect(Collectors.joining(" "));
    }
}
