package org.fastflowj.dist;

/**
 * The settings a group may override: the config's top level gives the defaults, a group's own keys
 * win. Kept together so the "override or global" rule is written once.
 */
record Tuning(
        int batchSize, int messageOTF, int internalMessageOTF, long flushDelayMicros, long maxBufferedBytesPerLink) {
    /**
     * Batches sized by the observed rate ({@code "auto"}: a slow stream still goes one message per frame,
     * as FastFlow's batch size 1, a full one in large frames) and FastFlow's flush delay; more batches in
     * flight than FastFlow's 64 ({@link GroupConfig#DEFAULT_MESSAGE_OTF} says why); and a receiving group's
     * 32 MiB per link (not in FastFlow).
     */
    static final Tuning DEFAULTS = new Tuning(
            GroupConfig.AUTO_BATCH_SIZE,
            GroupConfig.DEFAULT_MESSAGE_OTF,
            GroupConfig.DEFAULT_MESSAGE_OTF,
            100,
            GroupConfig.DEFAULT_MAX_BUFFERED_BYTES_PER_LINK);
    /** Below a few 64 KiB items in flight, a stream of large items would pause reading at every one. */
    static final long MIN_BUFFERED_BYTES_PER_LINK = 256 * 1024;
}
