package org.fastflowj.stream;

/**
 * A keyed stream's low-level operator: each record of a key, in arrival order, with that key's state
 * and its event- and processing-time timers. One function object runs per operator instance (the stream takes a supplier),
 * so fields hold state handles, not per-key data.
 *
 * @param <K> the key's type
 * @param <T> the records' type
 * @param <R> the results' type
 */
public abstract class KeyedProcessFunction<K, T, R> {
    /** What a call sees: the key, the time, the watermark; where results and timers go. */
    public interface Context<K, R> {
        K key();

        /** The record's event time, or the firing timer's time. */
        long timestamp();

        long currentWatermark();

        /** Emits a result with the {@link #timestamp()}. */
        void emit(R result);

        /**
         * Asks for {@link #onTimer} for this key once the watermark reaches {@code time}; at most one timer
         * per key and time.
         */
        void registerEventTimeTimer(long time);

        void deleteEventTimeTimer(long time);

        /** The wall clock, in milliseconds since the epoch. */
        long currentProcessingTime();

        /**
         * Asks for {@link #onProcessingTimer} for this key once the wall clock reaches {@code time}
         * (milliseconds since the epoch; checked about every 10 ms while the sources run); at most one
         * timer per key and time. Timers still pending when the stream ends fire then.
         */
        void registerProcessingTimeTimer(long time);

        void deleteProcessingTimeTimer(long time);
    }

    protected KeyedProcessFunction() {}

    /** Called once per instance before its first record: create the state here. */
    public void open(KeyedStates states) throws Exception {}

    public abstract void processElement(T value, Context<K, R> ctx) throws Exception;

    /** An event-time timer of {@code ctx.key()} fired at time {@code time}. */
    public void onTimer(long time, Context<K, R> ctx) throws Exception {}

    /**
     * A processing-time timer of {@code ctx.key()} registered for {@code time} fired; {@code
     * ctx.timestamp()} is the watermark then (results keep event time).
     */
    public void onProcessingTimer(long time, Context<K, R> ctx) throws Exception {}
}
