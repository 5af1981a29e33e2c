package org.fastflowj.launcher.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.dist.ProgramFrames;

/**
 * Shortens the stack traces a group prints, for the terminal: a trace's first line (the exception and
 * its message) stays, and so does the first frame of the program's own code; the frames of the JDK, of
 * FastFlow-J and of its libraries (25 Netty frames for a peer's failure) are cut. The group's log file
 * keeps every line, and {@code --full-traces} shows them. A cause's message of several lines that repeats
 * lines already shown in the same trace (each wrapper's message carries its cause's, a serializer's trace
 * with it) is cut too: the terminal shows such a block once.
 *
 * <p>Threading: one instance per stream of a group, used by that stream's pump thread only.
 */
public final class TraceCondenser {
    /** A stack frame: {@code \tat my.App.main(App.java:12)}, maybe with a module or loader before the class. */
    private static final Pattern FRAME = Pattern.compile("^\\s+at (?:[\\w.$/@-]+/)?([\\w.$]+)\\.[^.(\\s]+\\(.*\\)$");

    /** A line that goes on with a trace once one has started: a cause, a suppressed exception, an elision. */
    private static final Pattern TRACE_TAIL =
            Pattern.compile("^(\\s*\\.\\.\\. \\d+ (more|common frames omitted)|Caused by: |\\s+Suppressed: )");

    /**
     * A line that starts an exception: its class (in a package) and maybe its message, as the JVM prints
     * an uncaught one ({@code Exception in thread "main" a.b.SomeException: why}) or a cause.
     */
    private static final Pattern EXCEPTION_START = Pattern.compile(
            "^(?:Exception in thread \"[^\"]*\" |Caused by: )?(?:[A-Za-z_$][\\w$]*\\.)+[A-Za-z_$][\\w$]*(?::(?: .*)?)?$");
    /** The most lines of one exception's message kept; a longer run of lines is the program's own output. */
    private static final int MESSAGE_LINES = 12;

    private String previous = "";
    /** Since the last line that starts an exception, the lines before any frame: its message. */
    private final List<String> message = new ArrayList<>();

    private boolean inTrace;
    /** After a trace's {@code Caused by:} or {@code Suppressed:} line, until the next frame: that cause's message. */
    private boolean inCause;
    /** The message lines shown since the current trace's exception started (stripped). */
    private final Set<String> chainMessage = new HashSet<>();

    private boolean userFrameShown;
    private int cutLines;
    private String firstException;
    private String firstUserFrame;

    /** What the terminal shows of {@code line}: the line itself, or null when it is cut. */
    public String show(String line) {
        Matcher frame = FRAME.matcher(line);
        boolean isFrame = frame.matches();
        boolean isTail = !isFrame && inTrace && TRACE_TAIL.matcher(line).lookingAt();
        if (!isFrame && !isTail) {
            if (inCause && !chainMessage.add(line.strip())) {
                cutLines++;
                return null;
            }
            inTrace = false;
            previous = line;
            if (EXCEPTION_START.matcher(line).matches()) {
                if (!inCause) {
                    chainMessage.clear();
                }
                message.clear();
                message.add(line);
            } else if (!message.isEmpty() && message.size() < MESSAGE_LINES) {
                message.add(line.strip());
            } else {
                message.clear();
            }
            return line;
        }
        inCause = isTail && !line.stripLeading().startsWith("...");
        if (!inTrace) {
            inTrace = true;
            userFrameShown = false;
            message.forEach(m -> chainMessage.add(m.strip()));
            if (firstException == null) {
                // A message of several lines (a serializer's trace under its error) is kept whole, in one line.
                firstException = message.isEmpty() ? previous : String.join(" ", message);
            }
            message.clear();
        }
        if (!userFrameShown && isFrame && isProgramCode(frame.group(1))) {
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
    public int cutLines() {
        return cutLines;
    }

    /**
     * The first trace's exception and its message, the lines of a message of several joined by spaces (else
     * the line before the trace), or null without a trace.
     */
    public String firstException() {
        return firstException;
    }

    /** The first trace's first frame of the program's code ({@code at my.App.main(App.java:12)}), or null. */
    public String firstUserFrame() {
        return firstUserFrame;
    }

    private static boolean isProgramCode(String className) {
        return ProgramFrames.isProgramCode(className);
    }
}
