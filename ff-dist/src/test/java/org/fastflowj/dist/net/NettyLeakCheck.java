package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Netty's leak detector at PARANOID for the test class, recording every leak report so the class fails on
 * one (after the fact: Netty notices a leak only when the buffer is garbage-collected).
 *
 * <p>Netty creates a resource type's detector once, when that type is first used, and the build names
 * {@link RecordingDetector} as the detector class ({@code io.netty.customResourceLeakDetector}), so
 * leaks are recorded whichever test class touched Netty first; the factory set below covers runs
 * without that property. The level is read on every allocation, so it is raised for the class alone.
 */
public final class NettyLeakCheck implements BeforeAllCallback, AfterAllCallback {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    static {
        if (System.getProperty("io.netty.customResourceLeakDetector") == null) {
            ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        }
    }

    private ResourceLeakDetector.Level levelBefore;

    @Override
    public void beforeAll(ExtensionContext context) {
        LEAKS.clear();
        levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        try {
            // Collect, then allocate: the detector reports while tracking new buffers.
            for (int i = 0; i < 3; i++) {
                collectGarbage();
                ByteBuf probe = PooledByteBufAllocator.DEFAULT.buffer(16);
                probe.release();
            }
        } finally {
            ResourceLeakDetector.setLevel(levelBefore);
        }
        assertThat(LEAKS).as("Netty buffer leaks").isEmpty();
    }

    /**
     * Returns once a collection has run and its weak references were enqueued: a sentinel unreachable
     * before the call is awaited on its queue (at most 5 s), as a leaked buffer's tracker would be.
     */
    private static void collectGarbage() throws InterruptedException {
        ReferenceQueue<Object> collected = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), collected);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (collected.remove(10) == null) {
            assertThat(System.nanoTime() - deadline)
                    .as("a garbage collection within 5 s")
                    .isNegative();
            System.gc();
        }
        Reference.reachabilityFence(sentinel);
    }

    /** Netty's detector, also recording each leak it reports. Named in the build's surefire settings. */
    public static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        public RecordingDetector(Class<?> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        /** The constructor Netty's factory looks for first (it logs an error when there is none). */
        @SuppressWarnings("deprecation")
        public RecordingDetector(Class<?> resource, int samplingInterval, long maxActive) {
            super(resource, samplingInterval, maxActive);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add(resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add(resourceType);
            super.reportUntracedLeak(resourceType);
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation") // the factory method every Netty version calls
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }
}
