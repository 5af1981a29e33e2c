package org.fastflowj.dist.serial;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Big-endian NIO views of a region of a Netty buffer, for bulk copies of primitive arrays. */
final class NioViews {
    private NioViews() {}

    static ByteBuffer of(ByteBuf buf, int index, int length) {
        // internalNioBuffer reuses a buffer object Netty keeps; composite buffers have none and get a fresh view.
        ByteBuffer view =
                buf.nioBufferCount() == 1 ? buf.internalNioBuffer(index, length) : buf.nioBuffer(index, length);
        if (view.order() != ByteOrder.BIG_ENDIAN) {
            view = view.duplicate().order(ByteOrder.BIG_ENDIAN);
        }
        return view;
    }
}
