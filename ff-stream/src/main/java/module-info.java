/**
 * FastFlow-J's streams: a typed stream API (map, keyBy, event-time windows, keyed state and timers)
 * compiled onto ff-core's building blocks. Programs see {@code org.fastflowj.stream}; the operators,
 * the control marks and the compiler live in {@code org.fastflowj.stream.internal}.
 */
module org.fastflowj.stream {
    requires transitive org.fastflowj.core;
    requires org.slf4j;

    exports org.fastflowj.stream;
}
