package org.fastflowj.dist.serial;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.fastflowj.dist.WireOutput;

/** {@link WireOutput} over a Netty buffer; one per codec, pointed at the current buffer for each item. */
final class ByteBufWireOutput implements WireOutput {
    private ByteBuf buf;

    ByteBufWireOutput target(ByteBuf target) {
        this.buf = target;
        return this;
    }

    void clear() {
        this.buf = null;
    }

    @Override
    public void writeByte(int value) {
        buf.writeByte(value);
    }

    @Override
    public void writeInt(int value) {
        buf.writeInt(value);
    }

    @Override
    public void writeLong(long value) {
        buf.writeLong(value);
    }

    @Override
    public void writeDouble(double value) {
        buf.writeDouble(value);
    }

    @Override
    public void writeBytes(byte[] src, int offset, int length) {
        buf.writeBytes(src, offset, length);
    }

    @Override
    public void writeBytes(ByteBuffer src) {
        buf.writeBytes(src);
    }

    @Override
    public void writeDoubles(double[] src, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, src.length);
        int bytes = Math.multiplyExact(length, Double.BYTES);
        buf.ensureWritable(bytes);
        int at = buf.writerIndex();
        // A big-endian NIO view of the writable region lets the JDK do the copy in bulk (no per-element calls).
        NioViews.of(buf, at, bytes).asDoubleBuffer().put(src, offset, length);
        buf.writerIndex(at + bytes);
    }
}
