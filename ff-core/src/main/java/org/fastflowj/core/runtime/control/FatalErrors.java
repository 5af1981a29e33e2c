package org.fastflowj.core.runtime.control;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What a thread of ours does with a {@link VirtualMachineError} (out of memory, an internal JVM error;
 * not a stack overflow, which fails the run like any exception): it reports it, naming itself, lets the registered last words run for a bounded
 * time (ff-dist tells the peer groups), and halts the JVM with {@link #EXIT_STATUS}. Carrying on is
 * not an option: after an {@code OutOfMemoryError} any allocation may fail again, in a lock, a queue or
 * a Netty buffer, and the process may neither finish nor fail (a run that waits for a dead thread hangs
 * for ever). Halting, not exiting: shutdown hooks and finalization could themselves hang.
 *
 * <p>Threading: any thread. The first fatal error wins; a thread that meets one while the JVM is being
 * halted waits for the halt.
 */
public final class FatalErrors {
    /** The JVM's own status for {@code -XX:+ExitOnOutOfMemoryError}, so both read the same. */
    public static final int EXIT_STATUS = 3;
    /** How long the last words may take before the JVM halts anyway. */
    static final long LAST_WORDS_MS = 1_500;

    private static final List<Consumer<String>> LAST_WORDS = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean HALTING = new AtomicBoolean();
    /** Printed when not even the report could be built: nothing is allocated for it. */
    private static final String BARE_REPORT = "fatal JVM error in a fastflowj thread; halting the JVM";
    /**
     * Heap kept for the report and the last words: when a node runs out of memory its data is usually still
     * reachable, and without this the report itself could not be built.
     */
    private static volatile byte[] reserve = new byte[1 << 20];

    private FatalErrors() {}

    /**
     * Loads this class and its reserve now: after an out-of-memory, loading it could fail. A run calls it
     * before its threads start.
     */
    public static void prepare() {
        if (reserve == null && !HALTING.get()) {
            reserve = new byte[1 << 20];
        }
    }

    /** Whether the JVM is being halted: what threads still see may be the fatal error's consequences. */
    public static boolean halting() {
        return HALTING.get();
    }

    /** Whether {@code t}, or a cause of it, is a {@link VirtualMachineError}. */
    public static boolean isFatal(Throwable t) {
        return fatalIn(t) != null;
    }

    /**
     * Registers what to do before the JVM halts (told why, in one line); runs on a thread of its own, for
     * at most {@link #LAST_WORDS_MS} in all. Returns the handle that removes it.
     */
    public static Runnable beforeHalt(Consumer<String> lastWords) {
        LAST_WORDS.add(lastWords);
        return () -> LAST_WORDS.remove(lastWords);
    }

    /**
     * Reports the fatal error met in {@code where} (a node, an event loop) on standard error, runs the last
     * words and halts the JVM with {@link #EXIT_STATUS}. Never returns.
     */
    public static void halt(String where, Throwable error) {
        if (!HALTING.compareAndSet(false, true)) {
            parkForever(); // another thread is halting the JVM; this one must not carry on meanwhile
        }
        reserve = null;
        boolean reported = false;
        try {
            String report = report(where, error);
            print(System.err, report);
            reported = true;
            runLastWords(report);
        } catch (Throwable again) {
            if (!reported) {
                print(System.err, BARE_REPORT);
            }
        } finally {
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
    }

    /**
     * As {@link #halt}, on a thread of its own, and returns: for a thread that must keep running meanwhile
     * (a network event loop writes the last words to the peers).
     */
    public static void haltSoon(String where, Throwable error) {
        if (HALTING.get()) {
            return;
        }
        try {
            // Not a daemon: a main thread that ends meanwhile (its run failed) must not exit the JVM first.
            Thread halting = new Thread(new Halt(where, error), "ff-fatal-halt");
            halting.setDaemon(false);
            halting.start();
        } catch (Throwable noThread) {
            halt(where, error);
        }
    }

    /** "out of memory in node sink: java.lang.OutOfMemoryError: Java heap space; halting (exit status 3)". */
    static String report(String where, Throwable error) {
        Throwable fatal = fatalIn(error);
        Throwable shown = fatal == null ? error : fatal;
        String what = shown instanceof OutOfMemoryError ? "out of memory" : "fatal JVM error";
        return what + " in " + where + ": " + shown + "; halting the JVM (exit status " + EXIT_STATUS + ")";
    }

    private static void runLastWords(String report) throws InterruptedException {
        if (LAST_WORDS.isEmpty()) {
            return;
        }
        Thread speaker = new Thread(new LastWords(report), "ff-fatal-last-words");
        speaker.setDaemon(true);
        speaker.start();
        speaker.join(LAST_WORDS_MS);
    }

    /** Classes, not lambdas: after an out-of-memory, spinning a lambda's class up could fail. */
    private static final class Halt implements Runnable {
        private final String where;
        private final Throwable error;

        Halt(String where, Throwable error) {
            this.where = where;
            this.error = error;
        }

        @Override
        public void run() {
            halt(where, error);
        }
    }

    private static final class LastWords implements Runnable {
        private final String report;

        LastWords(String report) {
            this.report = report;
        }

        @Override
        public void run() {
            for (Consumer<String> words : LAST_WORDS) {
                try {
                    words.accept(report);
                } catch (Throwable t) {
                    // the JVM halts anyway: the other last words still get their turn
                }
            }
        }
    }

    private static Throwable fatalIn(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            // A stack overflow is not fatal: the stack has unwound by the time it is caught, the JVM is sound,
            // and it fails the run as any exception of the node's would (a recursion bug in one svc must not
            // halt a program that embeds a run).
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                return t;
            }
        }
        return null;
    }

    private static void print(PrintStream err, String line) {
        try {
            err.println(line);
            err.flush();
        } catch (Throwable t) {
            // nothing more can be done for the report; the halt still follows
        }
    }

    private static void parkForever() {
        while (true) {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(60));
            } catch (Throwable t) {
                // keep waiting for the halting thread
            }
        }
    }
}
