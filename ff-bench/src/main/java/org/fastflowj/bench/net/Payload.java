package org.fastflowj.bench.net;

/**
 * The message payload both sides send: one array, sent again and again (the sender never allocates per
 * message; the receiver makes a new array for each). Its first byte is {@link #FIRST_BYTE}, so a
 * receiver that sums first bytes proves it read every message's content, not just its length.
 */
final class Payload {
    static final byte FIRST_BYTE = 1;

    private Payload() {}

    static byte[] of(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("a payload needs at least one byte, got " + bytes);
        }
        byte[] payload = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            payload[i] = (byte) (i * 31 + FIRST_BYTE); // not all zeros: nothing on the way can compress it away
        }
        return payload;
    }
}
