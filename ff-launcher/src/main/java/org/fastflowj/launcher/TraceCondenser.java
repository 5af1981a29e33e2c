package org.fastflowj.launcher;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.dist.ProgramFrames;

/**
 * Shortens the stack traces a group prints, for the terminal: a trace's first line (the exception and
 * its message) stays, and so does the first frame of the program's own code; the frames of the JDK, of
 * FastFlow-J and of its libraries (25 Netty frames for a peer's failure) are cut. The group's log file
 * keeps every line, and {@code --full-traces} shows them.
 *
 * <p>Threading: one instance per stream of a group, used by that stream's pump thread only.
 */
final class TraceCondenser {
    /** A line that continues a trace: a frame, a cause, a suppressed exception, an elision. */
    private static final Pattern CONTINUATION =
            Pattern.compile("^(\\s+at |\\s*\\.\\.\\. \\d+ (more|common frames omitted)|Caused by: |\\s+Suppressed: )");

    private static final Pattern FRAME = Pattern.compile("^\\s+at (?:[\\w.$/@-]+/)?([\\w.$]+)\\.[^.(]+\\(.*");

    private String previous = "";
    private boolean inTrace;
    private boolean userFrameShown;
    private int cutLines;
    private String firstException;
    private String firstUserFrame;

    /** What the terminal shows of {@code line}: the line itself, or null when it is cut. */
    String show(String line) {
        if (!CONTINUATION.matcher(line).lookingAt()) {
            inTrace = false;
            previous = line;
            return line;
        }
        if (!inTrace) {
            inTrace = true;
            userFrameShown = false;
            if (firstException == null) {
                firstException = previous;
            }
        }
        Matcher frame = FRAME.matcher(line);
        if (!userFrameShown && frame.matches() && isProgramCode(frame.group(1))) {
            userFrameShown = true;
            if (firstUserFrame == null) {
                firstUserFrame = line.strip();
            }
            return line;
        }
        cutLines++;
        return null;
    }

    /** How many lines {@link #show} cut so far. */
    int cutLines() {
        return cutLines;
    }

    /** The line before the first trace (the exception and its message), or null without a trace. */
    String firstException() {
        return firstException;
    }

    /** The first trace's first frame of the program's code ({@code at my.App.main(App.java:12)}), or null. */
    String firstUserFrame() {
        return firstUserFrame;
    }

    private static boolean isProgramCode(String className) {
        return ProgramFrames.isProgramCode(className);
    }
}
