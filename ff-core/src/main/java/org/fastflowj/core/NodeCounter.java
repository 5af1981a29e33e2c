package org.fastflowj.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A named count a node keeps of something it did (records it skipped, records that came too late...),
 * shown with the node's statistics: {@link NodeStats#counters()}, the live page and {@code /metrics}.
 * A node declares its counters with {@link Node#counter(String)} (or {@link Node#declare} for one made
 * beside it) before it runs; its own thread counts, any thread reads.
 *
 * <p>Threading: one writer, the node's thread, so an increment is a plain read of the value and an opaque
 * write of the value plus one: no atomic read-modify-write, no lock, no allocation. The opaque write is
 * atomic for a {@code long} (no torn value on a 32-bit JVM) and cannot be kept in a register or dropped by
 * the JIT, so a reader sees every write eventually, in the order they were made. Readers (the statistics
 * of a running block, the live page's server threads) read with acquire, so a value once seen never goes
 * back to an older one. Nothing else is published through a counter, so no stronger ordering is needed.
 * A count taken during a run may lag its node by a few increments; after {@code waitEnd()} it is final
 * (the node's thread has ended).
 */
public final class NodeCounter {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(NodeCounter.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;

    @SuppressWarnings("unused") // read and written through VALUE
    private long value;

    /** A counter at 0, shown once a node {@linkplain Node#declare declares} it. */
    public NodeCounter(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a node counter needs a name");
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Adds one; only from the node's own thread. */
    public void increment() {
        VALUE.setOpaque(this, (long) VALUE.getOpaque(this) + 1);
    }

    /** Adds {@code delta}; only from the node's own thread. */
    public void add(long delta) {
        VALUE.setOpaque(this, (long) VALUE.getOpaque(this) + delta);
    }

    /** The count, from any thread. */
    public long get() {
        return (long) VALUE.getAcquire(this);
    }

    /** Back to 0 when the node starts a run, on its thread, so that each run counts its own. */
    void reset() {
        VALUE.setOpaque(this, 0L);
    }

    @Override
    public String toString() {
        return name + "=" + get();
    }
}
