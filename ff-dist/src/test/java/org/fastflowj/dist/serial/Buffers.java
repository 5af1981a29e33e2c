package org.fastflowj.dist.serial;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.function.Function;

/** Runs test bodies over heap and pooled direct buffers, releasing them afterwards. */
final class Buffers {
    private Buffers() {}

    static <T> T withHeap(Function<ByteBuf, T> body) {
        ByteBuf buf = Unpooled.buffer(64);
        try {
            return body.apply(buf);
        } finally {
            buf.release();
        }
    }

    static <T> T withDirect(Function<ByteBuf, T> body) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        try {
            return body.apply(buf);
        } finally {
            buf.release();
        }
    }

    /** Writes the item with one codec and reads it with another (as two processes would), through both kinds. */
    static Object acrossBothBufferKinds(ItemCodec sender, ItemCodec receiver, Object item) {
        Object viaHeap = withHeap(buf -> {
            sender.write(item, buf);
            Object back = receiver.read(buf);
            if (buf.isReadable()) {
                throw new AssertionError(buf.readableBytes() + " bytes left after reading one item");
            }
            return back;
        });
        Object viaDirect = withDirect(buf -> {
            sender.write(item, buf);
            Object back = receiver.read(buf);
            if (buf.isReadable()) {
                throw new AssertionError(buf.readableBytes() + " bytes left after reading one item");
            }
            return back;
        });
        if (viaHeap == null ? viaDirect != null : !viaHeap.getClass().equals(viaDirect.getClass())) {
            throw new AssertionError("heap and direct buffers disagree: " + viaHeap + " vs " + viaDirect);
        }
        return viaHeap;
    }
}
