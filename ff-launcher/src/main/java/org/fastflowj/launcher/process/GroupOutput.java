package org.fastflowj.launcher.process;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.launcher.report.FailureReport;
import org.fastflowj.launcher.report.StatusBoard;
import org.fastflowj.launcher.report.TraceCondenser;

/**
 * Where one group's lines go: the launcher's stdout or stderr with a {@code [G1] } prefix, its stack
 * traces shortened ({@link TraceCondenser}) and a long failure message already shown pointed back at
 * ({@link ShownCauses}) unless every line is wanted, the group's own log file
 * (without prefix, every line) when {@code --log-dir} is given, and a short memory for the failure
 * report: the last lines shown, and the first lines that name a failure (output soon pushes those out of
 * the last lines, yet they say which group failed first).
 *
 * <p>A line on stderr sealed with the group's key ({@link ControlLine}) is the launcher's news, not the
 * program's output: it goes to the listener only. Every other line, whatever its words, is the program's,
 * shown and logged unchanged and never taken for news.
 *
 * <p>Threading: {@link #line} is called by the group's two pump threads (stdout and stderr); the log
 * file, the condensers and the memory are guarded by this object's monitor, and each launcher line is written by one
 * call of {@link StatusBoard#emit}, which is synchronized, so lines of different groups never mix.
 */
final class GroupOutput implements AutoCloseable {
    static final int REMEMBERED_LINES = 15;
    static final int REMEMBERED_FAILURE_LINES = 8;

    private final String group;
    private final String prefix;
    private final PrintWriter out;
    private final PrintWriter err;
    private final BufferedWriter log;
    private final ControlLine.Verifier control;
    private final Path logFile;
    private boolean logFailed;
    /** Closed: a line of the group's still on its way (a killed group's last) goes unlogged, not failed. */
    private boolean closed;

    private final Consumer<String> listener;
    private final StatusBoard board;
    private final ArrayDeque<String> lastLines = new ArrayDeque<>();
    private final List<String> failureLines = new ArrayList<>();
    private final TraceCondenser outTraces = new TraceCondenser();
    private final TraceCondenser errTraces = new TraceCondenser();
    private final boolean fullTraces;
    /** The run's long failure messages already shown, shared by its groups; null to show every line whole. */
    private final ShownCauses shownCauses;

    private String announcedFrame;
    private String announcedOrigin;
    /** The start of a stderr line that a sealed line interrupted; the stderr pump's alone. */
    private String heldErr = "";

    /**
     * @param logFile the group's log file ({@link LogFiles#create}), appended to, or null for none
     * @param control opens the group's sealed lines, or null to take none
     * @param listener sees the message of every sealed line (the run's news: connected, lost, statistics)
     * @param fullTraces true to show every line of a stack trace, not only its message and the program's frame
     * @param shownCauses the run's failure messages shown so far, shared by its groups, or null to show
     *     each in full every time
     */
    GroupOutput(
            String group,
            PrintWriter out,
            PrintWriter err,
            StatusBoard board,
            Path logFile,
            ControlLine.Verifier control,
            Consumer<String> listener,
            boolean fullTraces,
            ShownCauses shownCauses) {
        this.fullTraces = fullTraces;
        this.shownCauses = fullTraces ? null : shownCauses;
        this.group = group;
        this.prefix = "[" + group + "] ";
        this.board = board;
        this.out = out;
        this.err = err;
        this.control = control;
        this.listener = listener;
        this.logFile = logFile;
        try {
            // LogFiles made it a regular file: a link swapped in since is refused, never followed. Appended to:
            // LogFiles emptied it for the run, and a restarted group's attempts follow each other in it.
            this.log = logFile == null
                    ? null
                    : Files.newBufferedWriter(
                            logFile,
                            StandardCharsets.UTF_8,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND,
                            LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log file " + logFile, e);
        }
    }

    /**
     * One line the group printed, without its line terminator, on stderr if {@code fromStderr}. A sealed
     * line of the group's only goes to the listener: it is the launcher's, not the user's.
     */
    void line(String text, boolean fromStderr) {
        if (fromStderr && control != null) {
            text = heldErr + text;
            heldErr = "";
            for (int at = text.indexOf(ControlLine.PREFIX); at >= 0; at = text.indexOf(ControlLine.PREFIX, at + 1)) {
                String news = control.open(text.substring(at));
                if (news != null) {
                    remember(news);
                    listener.accept(news);
                    // A line the program had begun without ending it: its next bytes on stderr continue it.
                    heldErr = text.substring(0, at);
                    return;
                }
            }
        }
        show(text, fromStderr);
    }

    /** The group's stream ended: a line it left begun before a sealed line is its last. */
    void ended(boolean fromStderr) {
        if (fromStderr && !heldErr.isEmpty()) {
            String last = heldErr;
            heldErr = "";
            show(last, true);
        }
    }

    private void show(String text, boolean fromStderr) {
        String shown;
        synchronized (this) {
            // Under the monitor: the failure report reads the condensers while the pumps still run.
            String condensed = (fromStderr ? errTraces : outTraces).show(text);
            shown = fullTraces ? text : condensed;
            if (shown != null) {
                // Whole: the failure report leaves out only the message it says itself.
                if (lastLines.size() == REMEMBERED_LINES) {
                    lastLines.removeFirst();
                }
                lastLines.addLast(shown);
            }
            if (failureLines.size() < REMEMBERED_FAILURE_LINES && FailureReport.namesAFailure(text)) {
                failureLines.add(text);
            }
            writeLog(text);
        }
        if (shown == null) {
            return;
        }
        PrintWriter to = fromStderr ? err : out;
        if (shownCauses == null) {
            board.emit(to, prefix + shown);
        } else {
            shownCauses.show(group, shown, line -> board.emit(to, prefix + line));
        }
    }

    /** A line of the launcher's in the log file only, such as the start of a new attempt. */
    synchronized void logOnly(String text) {
        writeLog(text);
    }

    private void writeLog(String text) {
        if (log == null || logFailed || closed) {
            return;
        }
        try {
            log.write(text);
            log.newLine();
            log.flush();
        } catch (IOException e) {
            // A log missing lines (a full disk) is a failed run, as a failed stdout is.
            logFailed = true;
            board.outputFailed("cannot write the log file " + logFile + ": " + e.getMessage());
        }
    }

    /** What the failure report needs of the group's news: the origin it names, and the program's frame. */
    private synchronized void remember(String news) {
        if (announcedFrame == null && news.startsWith(FailureReport.FRAME_MARKER)) {
            announcedFrame =
                    "at " + news.substring(FailureReport.FRAME_MARKER.length()).strip();
        } else if (announcedOrigin == null && news.startsWith(FailureReport.MARKER)) {
            String origin = news.substring(FailureReport.MARKER.length()).strip();
            announcedOrigin = origin.isEmpty() ? null : origin;
        }
    }

    /** The origin of the failure as the group named it on its sealed line, or null. */
    synchronized String announcedOrigin() {
        return announcedOrigin;
    }

    /**
     * The last lines shown of the group's (both streams, in arrival order), oldest first, each with its
     * failure message whole.
     */
    synchronized List<String> lastLines() {
        return List.copyOf(lastLines);
    }

    /**
     * The group's first exception in one line and the first frame of the program's code under it (each
     * null when unknown), from stderr, where the JVM prints an uncaught exception; the frame, failing
     * that, from ff-dist's {@link FailureReport#FRAME_MARKER} line.
     */
    synchronized FailureReport.Failure failure() {
        return new FailureReport.Failure(
                errTraces.firstException(),
                errTraces.firstUserFrame() != null ? errTraces.firstUserFrame() : announcedFrame,
                fullTraces ? 0 : outTraces.cutLines() + errTraces.cutLines());
    }

    /** The first lines that name a failure ({@link FailureReport#namesAFailure}), oldest first. */
    synchronized List<String> failureLines() {
        return List.copyOf(failureLines);
    }

    @Override
    public synchronized void close() {
        if (log != null && !closed) {
            closed = true;
            try {
                log.close();
            } catch (IOException e) {
                // Nothing more to save.
            }
        }
    }
}
