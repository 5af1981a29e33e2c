package org.fastflowj.dist;

import java.util.List;

/**
 * Thrown by the first run of a program asked only its groups ({@link DFF#PRINT_GROUPS_OPTION}), once it
 * printed them ({@code DFF_GROUPS: G1,G2}): the run runs nothing, and the exception keeps the rest of the
 * program from running too, with no results to act on. A library does not end the process it runs in, so
 * the program's {@code main} ends it: letting the exception through (the JVM prints this one line, with no
 * stack trace, and exits with status 1; the launcher reads only the groups line), or catching it and
 * returning.
 *
 * <p>Threading: an ordinary immutable exception.
 */
public final class GroupsPrintedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String[] groups;

    public GroupsPrintedException(List<String> groups) {
        super(
                "started with " + DFF.PRINT_GROUPS_OPTION + ": printed the program's groups ("
                        + String.join(",", groups) + ") and ran nothing",
                null,
                false,
                false);
        this.groups = groups.toArray(new String[0]);
    }

    /** The program's groups, in graph order, as printed. */
    public List<String> groups() {
        return List.of(groups);
    }
}
