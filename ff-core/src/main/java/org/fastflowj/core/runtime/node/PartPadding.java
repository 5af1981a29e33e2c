package org.fastflowj.core.runtime.node;

/**
 * 128 bytes ahead of the fields of a runner's side ({@link InputChannels}, {@link OutputChannels}), which
 * its thread writes on every item: the object allocated before it (often a neighbour's array, read by
 * another thread on every item) never shares their cache line. The int takes the 4-byte hole after the
 * object header, which the JVM would otherwise fill with one of those fields. Each side ends with the
 * same padding in a final subclass, since the JVM lays a class's fields after its superclass's ({@code
 * ParkingStateLayoutTest} checks both ends).
 */
@SuppressWarnings("unused")
public abstract class PartPadding {
    private int holeFiller;
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}
