package org.fastflowj.core;

/**
 * 128 bytes ahead of every node's fields. Node objects of one graph are usually allocated one after
 * the other, and each is written on every item by its own thread (the GO_ON/EOS signal, the user's
 * counters); without the gap two workers' nodes can share a cache line and slow each other down.
 */
@SuppressWarnings("unused")
abstract class NodePadding extends BuildingBlock {
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    NodePadding() {}
}
