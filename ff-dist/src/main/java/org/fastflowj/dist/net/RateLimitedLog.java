package org.fastflowj.dist.net;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A WARN line at most once per interval; the lines dropped in between are counted and the count is
 * added to the next line that is written. A stranger who opens thousands of connections gets them
 * refused without filling the disk.
 *
 * <p>Threading: safe from any thread (all event loops of a transport share one); lock-free.
 */
final class RateLimitedLog {
    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong nextLineNanos = new AtomicLong(System.nanoTime());
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedLog(Logger log, long interval, TimeUnit unit) {
        this.log = log;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Logs {@code message} at WARN unless a line was written less than an interval ago. */
    void warn(String message) {
        long now = System.nanoTime();
        long next = nextLineNanos.get();
        // One thread wins the slot per interval; losers only count, so a flood costs no lock.
        if (now - next < 0 || !nextLineNanos.compareAndSet(next, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return;
        }
        long dropped = suppressed.getAndSet(0);
        if (dropped == 0) {
            log.warn(message);
        } else {
            log.warn("{} ({} similar lines suppressed since the last one)", message, dropped);
        }
    }

    /** How many lines were dropped since the last one written (tests). */
    long suppressedCount() {
        return suppressed.get();
    }
}
