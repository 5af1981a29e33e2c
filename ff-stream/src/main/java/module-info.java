/**
 * FastFlow-J's streams: a typed stream API (map, keyBy, event-time windows, keyed state and timers)
 * compiled onto ff-core's building blocks. Programs see {@code org.fastflowj.stream}; the operators,
 * the control marks and the compiler live in {@code org.fastflowj.stream.internal}.
 */
// Kryo and Objenesis have no module descriptor yet (automatic modules).
@SuppressWarnings({"module", "requires-automatic"})
module org.fastflowj.stream {
    requires transitive org.fastflowj.core;
    requires org.slf4j;
    // Checkpoints write the operators' state (user keys and accumulators of any class) with Kryo.
    requires com.esotericsoftware.kryo;
    requires org.objenesis;

    exports org.fastflowj.stream;

    // Run in groups, Kryo writes the carriers between stages (record, watermark) and window results.
    opens org.fastflowj.stream to
            com.esotericsoftware.kryo;
    opens org.fastflowj.stream.internal to
            com.esotericsoftware.kryo;
}
