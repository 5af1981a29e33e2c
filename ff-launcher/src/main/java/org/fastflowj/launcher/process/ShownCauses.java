package org.fastflowj.launcher.process;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.fastflowj.launcher.report.CauseLine;

/**
 * The long failure messages the terminal showed in a run, across its groups: ff-dist logs a group's
 * failure, the JVM prints it again as the uncaught exception, and every peer relays it inside its own
 * ({@code node group A failed in abort: ... group A failed: <the same message>}). The terminal shows such a
 * message in full the first time and {@code (as above, from group A)} afterwards; the log files keep every
 * line whole.
 *
 * <p>Threading: called by every group's pump threads; one monitor orders the check with the line's
 * emission, so the full message is always shown before a line that points back at it.
 */
final class ShownCauses {
    /** Message to the group that showed it first. */
    private final Map<String, String> shownBy = new HashMap<>();

    /**
     * Hands {@code emit} the line as the terminal shows it: {@code line}, or {@code line} with a message
     * already shown replaced by a pointer to it.
     */
    synchronized void show(String group, String line, Consumer<String> emit) {
        emit.accept(condense(group, line));
    }

    private String condense(String group, String line) {
        CauseLine cause = CauseLine.of(line).orElse(null);
        if (cause == null || cause.message() == null || cause.message().length() < CauseLine.LONG_MESSAGE) {
            return line;
        }
        String first = shownBy.putIfAbsent(cause.message(), group);
        if (first == null) {
            return line;
        }
        return cause.replaceMessage(line, first.equals(group) ? "(as above)" : "(as above, from group " + first + ")");
    }
}
