package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The next unclaimed chunk of a dynamic loop: every free worker takes one with an atomic add, as
 * FastFlow's workers do in {@code nextTaskConcurrent}. Padded on both sides (128 bytes, the JCTools
 * layout) because every worker writes it while they all read the loop's other fields.
 */
final class ClaimCounter extends ClaimCounterFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    /** A chunk number, or at least {@code chunks} once none is left. */
    long claim() {
        return (long) NEXT.getAndAdd(this, 1L);
    }

    /** Called by the scheduler before the chunks are handed out; the SPSC hand-off publishes it. */
    void reset() {
        next = 0;
    }

    /** Makes every later {@link #claim()} return at least {@code chunks}: no new chunk starts after a failure. */
    void exhaust(long chunks) {
        NEXT.setVolatile(this, chunks);
    }
}

abstract class ClaimCounterPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class ClaimCounterFields extends ClaimCounterPad {
    static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(ClaimCounterFields.class, "next", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long next;
}
