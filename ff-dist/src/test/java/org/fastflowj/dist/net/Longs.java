package org.fastflowj.dist.net;

/** Big-endian bytes of a long, as the wire writes it. */
final class Longs {
    private Longs() {}

    static byte[] bytes(long value) {
        byte[] bytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (value >>> (56 - 8 * i));
        }
        return bytes;
    }
}
