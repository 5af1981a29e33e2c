package org.fastflowj.core.runtime.recovery;

/**
 * Items that a farm's emitter sends again (ff-dist: the items of a worker whose group was lost), and what
 * its end waits for. The emitter's thread takes such items whenever it waits or between items, and routes
 * each as if its {@code svc} had sent it (by the farm's policy, over the workers that are left). Its EOS waits until
 * every item it put on a {@link #watchedOutputs() watched} output is settled: answered by the worker, or
 * handed back here.
 *
 * <p>Threading: {@link #poll} and {@link #settled} on the emitter's thread; the implementation fills
 * itself from any thread. Whoever hands an item back makes it visible to {@code poll} before it counts it
 * as settled, so an emitter that reads the count first and then polls misses nothing.
 */
public interface Redelivery {
    /** The emitter's forward outputs whose items may come back (those to workers in other groups). */
    int[] watchedOutputs();

    /** Whether {@link #poll} may have an item: a cheap read, made between items. */
    boolean pending();

    /** An item to send again, or null. */
    Object poll();

    /** How many items put on forward output {@code output} are settled (answered, or handed back). */
    long settled(int output);

    /**
     * The emitter's EOS is next: it will take nothing more from here. An item handed back from now on
     * would be lost, so the implementation fails the run instead (the emitter, after this call, looks at
     * {@link #pending} once more: one of the two sees the other).
     */
    default void emitterEnds() {}
}
