package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The chunk counter every worker writes: each claim once, and its value padded from its neighbours. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClaimCounterTest {
    private static final long GAP = 128;

    @Test
    void shouldHandEveryChunkToExactlyOneOfSeveralClaimers() throws Exception {
        ClaimCounter counter = new ClaimCounter();
        long chunks = 200_000;
        Set<Long> claimed = ConcurrentHashMap.newKeySet();
        AtomicLong duplicates = new AtomicLong();
        Thread[] claimers = new Thread[4];
        for (int t = 0; t < claimers.length; t++) {
            claimers[t] = new Thread(() -> {
                for (long c = counter.claim(); c < chunks; c = counter.claim()) {
                    if (!claimed.add(c)) {
                        duplicates.incrementAndGet(); // counted here: a failed assertion would only end this thread
                    }
                }
            });
            claimers[t].start();
        }
        for (Thread claimer : claimers) {
            claimer.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(claimer.isAlive()).isFalse();
        }
        assertThat(duplicates.get()).as("chunks claimed twice").isZero();
        assertThat(claimed).hasSize((int) chunks);
        counter.exhaust(chunks);
        assertThat(counter.claim()).isGreaterThanOrEqualTo(chunks);
    }

    @Test
    void shouldKeepTheCounterTwoCacheLinesFromTheObjectsEdges() throws Exception {
        Class<?> unsafeType = Class.forName("sun.misc.Unsafe");
        Field theUnsafe = unsafeType.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Method offsetOf = unsafeType.getMethod("objectFieldOffset", Field.class);
        long next = (long) offsetOf.invoke(
                theUnsafe.get(null), ClaimCounter.class.getSuperclass().getDeclaredField("next"));
        long last = 0;
        for (Field f : ClaimCounter.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                last = Math.max(last, (long) offsetOf.invoke(theUnsafe.get(null), f));
            }
        }
        assertThat(next).as("counter offset from the object start").isGreaterThanOrEqualTo(GAP);
        assertThat(last + Long.BYTES - (next + Long.BYTES))
                .as("padding after the counter")
                .isGreaterThanOrEqualTo(GAP);
    }
}
