package org.fastflowj.launcher.report;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.fastflowj.dist.CheckedOutput;

/**
 * The state of every group (starting, running, connected, stopping, ended N, lost), with the time since it
 * started and its items per second ({@link GroupReports}), and, on a terminal, one live line per group
 * kept below the scrolling output, redrawn every second, and one more with the restarts from a checkpoint
 * once there was one.
 *
 * <p>Every line the launcher prints passes through {@link #emit}: on a terminal the status block is
 * erased, the line printed, and the block drawn again underneath, so output and status never
 * overwrite each other. Elsewhere (a pipe, a file, a test) lines are printed as they are and there is
 * no block: the run prints one line per group as it ends ({@link #describe}).
 *
 * <p>Threading: every method is synchronized; pump threads, the run loop, the shutdown hook and the
 * terminal's redraw thread all print through it.
 */
public final class StatusBoard {
    private static final String CURSOR_UP = "\033[%dA";
    private static final String CLEAR_LINE = "\r\033[2K";

    private final PrintWriter terminal;
    private final GroupReports reports;
    private final Map<String, String> states = new LinkedHashMap<>();
    private final Map<String, Long> startedNs = new LinkedHashMap<>();
    private final Map<String, Long> endedNs = new LinkedHashMap<>();
    /** The spare host each group moved to, if it moved. */
    private final Map<String, String> spares = new LinkedHashMap<>();

    private final ScheduledExecutorService redraw;
    private boolean drawn;
    /** The lines of the block on screen, to erase exactly those. */
    private int drawnLines;

    private int restarts;
    private String outputFailure;
    private Consumer<String> outputFailureListener = why -> {};

    /** @param terminal where the live block goes, or null for no live block */
    StatusBoard(List<String> groups, PrintWriter terminal) {
        this(groups, terminal, new GroupReports());
    }

    /**
     * @param terminal where the live block goes, or null for no live block
     * @param reports the groups' statistics, for their rates
     */
    public StatusBoard(List<String> groups, PrintWriter terminal, GroupReports reports) {
        this.terminal = terminal;
        this.reports = reports;
        groups.forEach(g -> states.put(g, "waiting"));
        if (terminal == null) {
            redraw = null;
        } else {
            redraw = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ff-launcher-status");
                t.setDaemon(true);
                return t;
            });
            redraw.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        }
    }

    public synchronized void update(String group, String state) {
        states.put(group, state);
        long now = System.nanoTime();
        if (state.equals("starting")) {
            startedNs.putIfAbsent(group, now);
        } else if (state.startsWith("ended") || state.equals("lost")) {
            endedNs.putIfAbsent(group, now);
        }
        if (terminal != null) {
            erase();
            draw();
        }
    }

    /**
     * Every group is being started again from the last checkpoint, the {@code restarts}-th time: the times
     * shown count from the new start, and the block says how many restarts there were.
     */
    public synchronized void restarted(int restarts) {
        this.restarts = restarts;
        startedNs.clear();
        endedNs.clear();
    }

    /** {@code group} runs on spare {@code host} from the coming restart on: its line says so. */
    public synchronized void moved(String group, String host) {
        spares.put(group, host);
    }

    /** How many times every group was started again from a checkpoint (the {@code /metrics} counter). */
    public synchronized int restarts() {
        return restarts;
    }

    /** Whether the states are drawn on a terminal (else the run says how each group ended, in a line). */
    public boolean live() {
        return terminal != null;
    }

    /**
     * {@code group}'s state, the spare it moved to, time since it started, rate and newest checkpoint:
     * {@code <state> on spare <host>, <elapsed>, <rate> items/s, checkpoint <id> (<duration>, <size>,
     * aligned in <alignment>)}; each part only once known, so a line is never padded with guesses.
     */
    public synchronized String describe(String group) {
        StringBuilder line = new StringBuilder(states.get(group));
        String spare = spares.get(group);
        if (spare != null) {
            line.append(" on spare ").append(spare);
        }
        Long start = startedNs.get(group);
        if (start != null) {
            long end = endedNs.getOrDefault(group, System.nanoTime());
            line.append(String.format(Locale.ROOT, ", %.1f s", (end - start) / 1e9));
            double rate = reports.rate(group);
            if (rate >= 0) {
                String grouped = String.format(Locale.ROOT, "%,.0f", rate).replace(',', ' ');
                line.append(", ").append(grouped).append(" items/s");
            }
            reports.checkpoints(group)
                    .filter(c -> c.completed() > 0)
                    .ifPresent(c -> line.append(String.format(
                            Locale.ROOT,
                            ", checkpoint %d (%d ms, %d B, aligned in %d ms)",
                            c.lastId(),
                            TimeUnit.NANOSECONDS.toMillis(c.lastDurationNanos()),
                            c.lastSizeBytes(),
                            TimeUnit.NANOSECONDS.toMillis(c.lastAlignmentNanos()))));
        }
        return line.toString();
    }

    /** Whether every group has printed its connected line ({@code DFF_CONNECTED}). */
    public synchronized boolean allConnected() {
        return states.values().stream().allMatch("connected"::equals);
    }

    /**
     * Prints {@code line} on {@code target}, above the live block; a write error of {@code target} is
     * {@link #outputFailed}.
     */
    public synchronized void emit(PrintWriter target, String line) {
        if (terminal != null) {
            erase();
        }
        target.println(line);
        target.flush();
        if (terminal != null) {
            draw();
        }
        String failure = CheckedOutput.failureOf(target);
        if (failure != null) {
            outputFailed(failure);
        }
    }

    /**
     * An output of the run (the launcher's standard output or error, a group's log file) cannot be
     * written: the first such failure is kept and told to the listener, so that the run stops.
     */
    public synchronized void outputFailed(String why) {
        if (outputFailure == null) {
            outputFailure = why;
            outputFailureListener.accept(why);
        }
    }

    /** Who hears of the first output failure (the run); called before any group starts. */
    public synchronized void onOutputFailure(Consumer<String> listener) {
        outputFailureListener = listener;
    }

    /** The first output failure ({@code "cannot write to standard output: ..."}), or null. */
    public synchronized String outputFailure() {
        return outputFailure;
    }

    /** Leaves the final states on screen, below the output, and stops drawing. */
    public synchronized void finish() {
        if (redraw != null) {
            redraw.shutdownNow();
        }
        drawn = false;
    }

    /** The elapsed times and rates move on: the block, while it is on screen, is drawn again. */
    private synchronized void tick() {
        if (drawn) {
            erase();
            draw();
        }
    }

    private void erase() {
        if (!drawn) {
            return;
        }
        terminal.print(String.format(CURSOR_UP, drawnLines));
        for (int i = 0; i < drawnLines; i++) {
            terminal.print(CLEAR_LINE + "\n");
        }
        terminal.print(String.format(CURSOR_UP, drawnLines));
        terminal.flush();
        drawn = false;
    }

    private void draw() {
        states.keySet().forEach(group -> terminal.print(CLEAR_LINE + "  " + group + ": " + describe(group) + "\n"));
        drawnLines = states.size();
        if (restarts > 0) {
            terminal.print(CLEAR_LINE + "  restarted from a checkpoint " + restarts
                    + (restarts == 1 ? " time" : " times") + "\n");
            drawnLines++;
        }
        terminal.flush();
        drawn = true;
    }
}
