package org.fastflowj.dist.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Netty's leak detector for buffers, made to keep what it finds: each leak it reports (and still logs)
 * is recorded here, so a test can fail on it instead of a "LEAK:" line scrolling past.
 *
 * <p>Netty learns of a leak only when the garbage collector has cleared a buffer that was never
 * released, and reports it when the next buffer is tracked. {@link #collect} forces both.
 *
 * <p>Threading: reports come on whichever thread allocates; the list is guarded by its own lock.
 */
public final class NettyLeaks {
    private static final List<String> REPORTS = new ArrayList<>();
    private static volatile boolean installed;

    private NettyLeaks() {}

    /**
     * Listens to the detector every Netty buffer shares ({@code AbstractByteBuf.leakDetector}, a
     * package-private field: Netty offers no other way to it, and replacing the detector factory only works
     * before the first buffer class is initialised, which a test JVM does not promise).
     */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            Field field = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
            field.setAccessible(true);
            ResourceLeakDetector<?> detector = (ResourceLeakDetector<?>) field.get(null);
            detector.setLeakListener(NettyLeaks::record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Netty's buffer leak detector: " + e, e);
        }
        installed = true;
    }

    /** Whether {@link #install} ran in this JVM. */
    public static boolean installed() {
        return installed;
    }

    /**
     * The leaks reported so far, after a collection has had the chance to find the buffers dropped
     * unreleased; forgets them. A leak is reported after the fact, so it may come from an earlier test of
     * the same JVM than the one that calls this.
     */
    public static List<String> collect() {
        // No event tells when the JVM has queued the cleared references: a few rounds, each a collection
        // and an allocation that makes the detector read its queue.
        for (int round = 0; round < 3; round++) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            ByteBufAllocator.DEFAULT.heapBuffer(1).release();
            ByteBufAllocator.DEFAULT.directBuffer(1).release();
        }
        synchronized (REPORTS) {
            List<String> found = new ArrayList<>(REPORTS);
            REPORTS.clear();
            return found;
        }
    }

    private static void record(String resourceType, String records) {
        String report = "LEAK: " + resourceType + ".release() was not called before it was garbage-collected."
                + (records.isEmpty()
                        ? " (no access records: run with -Dio.netty.leakDetection.level=paranoid)"
                        : records);
        synchronized (REPORTS) {
            REPORTS.add(report);
        }
    }
}
