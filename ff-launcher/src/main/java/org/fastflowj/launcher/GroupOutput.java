package org.fastflowj.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where one group's lines go: the launcher's stdout or stderr with a {@code [G1] } prefix, the group's
 * own log file (without prefix) when {@code --log-dir} is given, and a short memory for the failure
 * report: the last lines, and the first lines that name a failure (a stack trace soon pushes those out of
 * the last lines, yet they say which group failed first).
 *
 * <p>Threading: {@link #line} is called by the group's two pump threads (stdout and stderr); the log
 * file and the memory are guarded by this object's monitor, and each launcher line is written by one
 * call of {@link StatusBoard#emit}, which is synchronized, so lines of different groups never mix.
 */
final class GroupOutput implements AutoCloseable {
    static final int REMEMBERED_LINES = 15;
    static final int REMEMBERED_FAILURE_LINES = 8;

    private final String prefix;
    private final PrintWriter out;
    private final PrintWriter err;
    private final BufferedWriter log;
    private final Consumer<String> listener;
    private final StatusBoard board;
    private final ArrayDeque<String> lastLines = new ArrayDeque<>();
    private final List<String> failureLines = new ArrayList<>();

    /**
     * @param logFile the group's log file (created or truncated), or null for none
     * @param listener sees every line (the run watches for a connected marker)
     */
    GroupOutput(
            String group,
            PrintWriter out,
            PrintWriter err,
            StatusBoard board,
            Path logFile,
            Consumer<String> listener) {
        this.prefix = "[" + group + "] ";
        this.board = board;
        this.out = out;
        this.err = err;
        this.listener = listener;
        try {
            this.log = logFile == null ? null : Files.newBufferedWriter(logFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log file " + logFile, e);
        }
    }

    /** One line the group printed, without its line terminator, on stderr if {@code fromStderr}. */
    void line(String text, boolean fromStderr) {
        PrintWriter target = fromStderr ? err : out;
        board.emit(target, prefix + text);
        synchronized (this) {
            if (lastLines.size() == REMEMBERED_LINES) {
                lastLines.removeFirst();
            }
            lastLines.addLast(text);
            if (failureLines.size() < REMEMBERED_FAILURE_LINES && FailureReport.namesAFailure(text)) {
                failureLines.add(text);
            }
            if (log != null) {
                try {
                    log.write(text);
                    log.newLine();
                    log.flush();
                } catch (IOException e) {
                    // A full disk must not stop the run: the lines still reach the terminal.
                }
            }
        }
        listener.accept(text);
    }

    /** The last lines the group printed (both streams, in arrival order), oldest first. */
    synchronized List<String> lastLines() {
        return List.copyOf(lastLines);
    }

    /** The first lines that name a failure ({@link FailureReport#namesAFailure}), oldest first. */
    synchronized List<String> failureLines() {
        return List.copyOf(failureLines);
    }

    @Override
    public synchronized void close() {
        if (log != null) {
            try {
                log.close();
            } catch (IOException e) {
                // Nothing more to save.
            }
        }
    }
}
