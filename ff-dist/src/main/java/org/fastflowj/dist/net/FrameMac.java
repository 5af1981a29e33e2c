package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * The MAC of one direction of a link: HMAC-SHA256 over {@code sequence (8) | length (4) | type |
 * payload} of each frame, the sequence counting the frames of that direction from 0. The sequence is
 * not sent: both ends count, so a frame dropped, replayed or moved changes every MAC from there on.
 *
 * <p>Allocates nothing per frame: one {@link Mac} and two scratch arrays per instance; bytes of a
 * buffer without a backing array are copied through the scratch array, because {@code Mac.update(ByteBuffer)}
 * of a direct buffer allocates a temporary array each call.
 *
 * <p>Threading: one instance per direction of one channel, used on its event loop only.
 */
final class FrameMac {
    static final int TAG_BYTES = 32;
    private static final int SCRATCH_BYTES = 8 * 1024;

    private final Mac mac;
    private final byte[] scratch = new byte[SCRATCH_BYTES];
    private final byte[] tag = new byte[TAG_BYTES];
    private long sequence;

    FrameMac(byte[] key) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** The number of the next frame of this direction. */
    long sequence() {
        return sequence;
    }

    /**
     * Computes the next frame's tag into {@link #tag()} and counts the frame: {@code frameBytes}
     * readable bytes at {@code index} of {@code frame} are the type and the payload, whose length
     * (with the type) is {@code frameBytes}.
     */
    byte[] next(ByteBuf frame, int index, int frameBytes) {
        long seq = sequence++;
        for (int i = 0; i < Long.BYTES; i++) {
            scratch[i] = (byte) (seq >>> (56 - 8 * i));
        }
        for (int i = 0; i < Integer.BYTES; i++) {
            scratch[Long.BYTES + i] = (byte) (frameBytes >>> (24 - 8 * i));
        }
        mac.update(scratch, 0, Long.BYTES + Integer.BYTES);
        update(frame, index, frameBytes);
        try {
            mac.doFinal(tag, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e); // cannot happen: the array holds a SHA-256 tag
        }
        return tag;
    }

    /** The last tag computed; overwritten by the next call of {@link #next}. */
    byte[] tag() {
        return tag;
    }

    private void update(ByteBuf bytes, int index, int length) {
        if (bytes.hasArray()) {
            mac.update(bytes.array(), bytes.arrayOffset() + index, length);
            return;
        }
        int done = 0;
        while (done < length) {
            int chunk = Math.min(SCRATCH_BYTES, length - done);
            bytes.getBytes(index + done, scratch, 0, chunk);
            mac.update(scratch, 0, chunk);
            done += chunk;
        }
    }
}
