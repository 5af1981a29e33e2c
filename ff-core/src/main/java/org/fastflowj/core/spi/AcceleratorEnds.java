package org.fastflowj.core.spi;

/**
 * The engine's side of an accelerator: an input stage the caller feeds through a bounded SPSC channel
 * and an output stage that keeps every result in an unbounded one. The API puts the two stages around
 * the block and keeps the caller's loop (when to give up, what to rethrow); the waits and wake-ups are
 * the engine's.
 *
 * <p>Threading: one caller thread offers and ends the input, one (the same or another) takes results.
 *
 * @param <N> the API's node
 */
public interface AcceleratorEnds<N> {
    /** The stage to put before the block. */
    N inputStage();

    /** The stage to put after the block. */
    N outputStage();

    /** Offers an item to the input stage; false if the channel is full or the stage has ended. */
    boolean offer(Object item);

    /** Offers the end of the input stream; false if the channel is full. */
    boolean offerEnd();

    /** Whether the input stage has ended (end of input, or the block stopped taking input). */
    boolean inputClosed();

    /** Starts a new wait for room: the idle strategy begins again with its cheapest step. */
    void resetRoomWait();

    /** One idle step of the caller waiting for room in the input channel. */
    void awaitRoom();

    /** The next result, or null if none is ready. */
    Object pollResult();

    /** Whether the output stage has ended (all results are in the channel). */
    boolean outputEnded();

    /** Whether no result is waiting. */
    boolean noResultWaiting();

    /** Starts a new wait for a result. */
    void resetResultWait();

    /** One idle step of the caller waiting for a result. */
    void awaitResult();

    /** Starts a new wait of the caller for a condition of its own ({@link #awaitCondition}). */
    void resetConditionWait();

    /**
     * One idle step of the caller waiting for {@code ready} (re-checked once the park is announced), which
     * whoever makes it true follows with {@link #wakeCaller}. One thread at a time waits so.
     */
    void awaitCondition(java.util.function.BooleanSupplier ready);

    /** Wakes the caller if it parked in {@link #awaitCondition}, after publishing what it waits for. Any thread. */
    void wakeCaller();
}
