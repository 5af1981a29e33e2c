package org.fastflowj.connector.kafka;

/** Where a Kafka source starts reading each of its partitions. */
public enum StartingOffsets {
    /** The oldest record the partition still holds. */
    EARLIEST,
    /** After the last record the partition holds when the reader opens: only what comes next. */
    LATEST,
    /**
     * After what the source's consumer group committed (a group id is required); a partition the group
     * never committed starts at {@link #EARLIEST}.
     */
    COMMITTED
}
