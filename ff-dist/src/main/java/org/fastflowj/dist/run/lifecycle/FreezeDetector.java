package org.fastflowj.dist.run.lifecycle;

import java.util.concurrent.TimeUnit;

/**
 * Notices that this process itself stood still (SIGSTOP, a debugger, a long GC pause, a suspended VM): a
 * daemon thread wakes every 100 ms and remembers the last gap between two wake-ups that was far longer.
 *
 * <p>Why: peers that hear nothing from a frozen group for the heartbeat timeout give up on it and close
 * their links. When the group resumes it finds every link broken, and would blame those healthy peers;
 * knowing that it was the one standing still, it blames itself.
 *
 * <p>Threading: the ticker writes two volatile fields, any thread reads them. The two are not read
 * atomically together: a race can only misdate a freeze by one tick, which changes a message, never a
 * decision about data.
 */
final class FreezeDetector implements AutoCloseable {
    private static final long TICK_MS = 100;

    private final long thresholdNs;
    private final Thread ticker;
    private volatile long lastTickNs = System.nanoTime();
    private volatile long lastFreezeNs;
    private volatile long lastFreezeEndNs;
    private volatile boolean closed;

    /** @param thresholdMs a gap between two ticks longer than this is a freeze */
    FreezeDetector(String group, long thresholdMs) {
        this.thresholdNs = TimeUnit.MILLISECONDS.toNanos(thresholdMs);
        this.ticker = new Thread(this::tick, "ff-freeze-watch-" + group);
        ticker.setDaemon(true);
        ticker.start();
    }

    private void tick() {
        while (!closed) {
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            long gap = now - lastTickNs;
            if (gap > thresholdNs) {
                lastFreezeNs = gap;
                lastFreezeEndNs = now;
            }
            lastTickNs = now;
        }
    }

    /**
     * How long this process stood still, in ms, if it is just coming out of a freeze (the ticker has not
     * run for longer than the threshold) or came out of one less than {@code withinMs} ago; 0 otherwise.
     */
    long recentFreezeMs(long withinMs) {
        long now = System.nanoTime();
        long sinceTick = now - lastTickNs;
        if (sinceTick > thresholdNs) {
            return TimeUnit.NANOSECONDS.toMillis(sinceTick);
        }
        long freeze = lastFreezeNs;
        if (freeze > 0 && now - lastFreezeEndNs < TimeUnit.MILLISECONDS.toNanos(withinMs)) {
            return TimeUnit.NANOSECONDS.toMillis(freeze);
        }
        return 0;
    }

    @Override
    public void close() {
        closed = true;
        ticker.interrupt();
    }
}
