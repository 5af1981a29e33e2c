package org.fastflowj.core;

/**
 * 128 bytes ahead of every node's fields. Node objects of one graph are usually allocated one after
 * the other, and each is written on every item by its own thread (the GO_ON/EOS signal, the user's
 * counters); without the gap two workers' nodes can share a cache line and slow each other down.
 *
 * <p>Padding inside the object cannot follow a subclass's fields, which the JVM lays out last, right
 * before the next object's header; a thread reads its node's header on every item (the class word, to
 * call {@code svc}). So {@link Node} also allocates a 144-byte array as it is constructed, which lands
 * right behind the node in the allocating thread's buffer. Without it, a user counter in the last node of
 * one thread can share a cache line with the first node of the other, and the two threads then slow each
 * other down on every item, in some runs and not others. {@code NodeLayoutTest} checks the distance.
 */
@SuppressWarnings("unused")
abstract class NodePadding extends BuildingBlock {
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    NodePadding() {}
}
