/**
 * FastFlow-J's streams: a typed stream API (map, keyBy, event-time windows, keyed state and timers)
 * compiled onto ff-core's building blocks. Programs see {@code org.fastflowj.stream}; the operators,
 * the control marks and the compiler live in {@code org.fastflowj.stream.internal}.
 */
// Kryo is ff-dist's: absent when a program runs on ff-core alone, and the opens then mean nothing.
@SuppressWarnings("module")
module org.fastflowj.stream {
    requires transitive org.fastflowj.core;

    exports org.fastflowj.stream;

    // Run in groups, ff-dist's Kryo writes the carriers between stages (record, watermark) and window results.
    opens org.fastflowj.stream to
            com.esotericsoftware.kryo;
    opens org.fastflowj.stream.internal to
            com.esotericsoftware.kryo;
}
