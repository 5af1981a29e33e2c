package org.fastflowj.launcher.report;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure line read from the outside in: each wrapper's message starts with its cause's (a node's
 * {@code node square failed in svc: }, a group's {@code group B failed: }, an exception's class), so the
 * words after the last wrapper are what the innermost useful exception said, and the rest repeats it.
 * Found in an uncaught exception's line, a logged {@code group B failed: ...}, a peer's
 * {@code node group B failed in abort: ...}.
 *
 * @param exception the innermost exception class named, or null when the line names none
 * @param node the innermost node named as failing, or null
 * @param message the innermost message, or null when the innermost exception has none
 * @param messageAt where {@code message} starts in the line (its length when there is none)
 */
public record CauseLine(String exception, String node, String message, int messageAt) {
    /** The shortest message worth a pointer back instead of a repetition: a shorter one costs less to repeat. */
    public static final int LONG_MESSAGE = 40;

    /**
     * One wrapper at the start of the rest of a line: an exception's class (lower-case packages, a
     * capitalised class, as the JVM prints {@code a.b.SomeException: why}), a group's own failure, or a
     * node's. A message such as {@code config.json: line 3} names no class.
     */
    private static final Pattern WRAPPER = Pattern.compile("(?<exception>(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*)(?::\\s*|$)"
            + "|group \\S+ failed(?::\\s*|$)"
            + "|node (?<node>.+?) failed in \\w+(?::\\s*|$)");

    /** The line's first wrapper, wherever it is: a log line's own words come before it. */
    private static final Pattern FIRST_WRAPPER = Pattern.compile("(?:^|(?<=[\\s\"(]))(?:" + WRAPPER.pattern() + ")");

    /** The innermost cause {@code line} names, or empty when it starts no chain of wrappers. */
    public static Optional<CauseLine> of(String line) {
        Matcher first = FIRST_WRAPPER.matcher(line);
        if (!first.find()) {
            return Optional.empty();
        }
        String exception = first.group("exception");
        String node = first.group("node");
        int at = first.end();
        Matcher next = WRAPPER.matcher(line);
        while (at < line.length() && next.region(at, line.length()).lookingAt()) {
            if (next.group("exception") != null) {
                exception = next.group("exception");
            }
            if (next.group("node") != null) {
                node = next.group("node");
            }
            at = next.end();
        }
        String message = line.substring(at).strip();
        return Optional.of(new CauseLine(exception, node, message.isEmpty() ? null : message, at));
    }

    /**
     * The cause in a few words for the launcher's summary: {@code with java.lang.IllegalStateException in
     * node square: square refuses 50}.
     */
    public String describe() {
        StringBuilder s = new StringBuilder();
        if (exception != null) {
            s.append("with ").append(exception);
        }
        if (node != null) {
            s.append(s.isEmpty() ? "" : " ").append("in node ").append(node);
        }
        if (message != null) {
            s.append(s.isEmpty() ? "" : ": ").append(message);
        }
        return s.toString();
    }

    /** {@code line} with this cause's message replaced by {@code instead}; the line itself without a message. */
    public String replaceMessage(String line, String instead) {
        return message == null ? line : line.substring(0, messageAt) + instead;
    }
}
