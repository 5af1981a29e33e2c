package org.fastflowj.launcher;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of every group (starting, running, connected, stopping, ended N) and, on a terminal, one
 * live line per group kept below the scrolling output.
 *
 * <p>Every line the launcher prints passes through {@link #emit}: on a terminal the status block is
 * erased, the line printed, and the block drawn again underneath, so output and status never
 * overwrite each other. Elsewhere (a pipe, a file, a test) lines are printed as they are and there is
 * no block.
 *
 * <p>Threading: every method is synchronized; pump threads, the run loop and the shutdown hook all
 * print through it.
 */
final class StatusBoard {
    private static final String CURSOR_UP = "\033[%dA";
    private static final String CLEAR_LINE = "\r\033[2K";

    private final PrintWriter terminal;
    private final Map<String, String> states = new LinkedHashMap<>();
    private boolean drawn;

    /** @param terminal where the live block goes, or null for no live block */
    StatusBoard(List<String> groups, PrintWriter terminal) {
        this.terminal = terminal;
        groups.forEach(g -> states.put(g, "waiting"));
    }

    synchronized void update(String group, String state) {
        states.put(group, state);
        if (terminal != null) {
            erase();
            draw();
        }
    }

    /** Whether every group has printed {@link ConnectedMarker}. */
    synchronized boolean allConnected() {
        return states.values().stream().allMatch("connected"::equals);
    }

    /** Prints {@code line} on {@code target}, above the live block. */
    synchronized void emit(PrintWriter target, String line) {
        if (terminal != null) {
            erase();
        }
        target.println(line);
        target.flush();
        if (terminal != null) {
            draw();
        }
    }

    /** Leaves the final states on screen, below the output, and stops drawing. */
    synchronized void finish() {
        drawn = false;
    }

    private void erase() {
        if (!drawn) {
            return;
        }
        terminal.print(String.format(CURSOR_UP, states.size()));
        for (int i = 0; i < states.size(); i++) {
            terminal.print(CLEAR_LINE + "\n");
        }
        terminal.print(String.format(CURSOR_UP, states.size()));
        terminal.flush();
        drawn = false;
    }

    private void draw() {
        states.forEach((group, state) -> terminal.print(CLEAR_LINE + "  " + group + ": " + state + "\n"));
        terminal.flush();
        drawn = true;
    }
}
