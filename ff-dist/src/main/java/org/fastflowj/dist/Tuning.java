package org.fastflowj.dist;

/**
 * The settings a group may override: the config's top level gives the defaults, a group's own keys
 * win. Kept together so the "override or global" rule is written once.
 */
record Tuning(int batchSize, int messageOTF, int internalMessageOTF, long flushDelayMicros) {
    static final Tuning FASTFLOW_DEFAULTS = new Tuning(1, 64, 64, 100);
}
