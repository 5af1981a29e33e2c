package org.fastflowj.dist.serial;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.fastflowj.dist.WireInput;

/**
 * {@link WireInput} over the bytes of one item inside a Netty buffer; reads past the item's end fail, so a faulty
 * custom serializer cannot eat into the next item. One per codec, pointed at each item in turn.
 */
final class ByteBufWireInput implements WireInput {
    private ByteBuf buf;
    private int end;

    ByteBufWireInput source(ByteBuf source, int itemEnd) {
        this.buf = source;
        this.end = itemEnd;
        return this;
    }

    void clear() {
        this.buf = null;
    }

    @Override
    public int readableBytes() {
        return end - buf.readerIndex();
    }

    private void need(long bytes) {
        if (bytes > readableBytes()) {
            throw new CorruptFrameException(
                    "custom serializer read " + bytes + " bytes with only " + readableBytes() + " left in the item");
        }
    }

    @Override
    public byte readByte() {
        need(1);
        return buf.readByte();
    }

    @Override
    public int readInt() {
        need(Integer.BYTES);
        return buf.readInt();
    }

    @Override
    public long readLong() {
        need(Long.BYTES);
        return buf.readLong();
    }

    @Override
    public double readDouble() {
        need(Double.BYTES);
        return buf.readDouble();
    }

    @Override
    public void readBytes(byte[] dst, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, dst.length);
        need(length);
        buf.readBytes(dst, offset, length);
    }

    @Override
    public void readBytes(ByteBuffer dst) {
        need(dst.remaining());
        buf.readBytes(dst);
    }

    @Override
    public void readDoubles(double[] dst, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, dst.length);
        long bytes = (long) length * Double.BYTES;
        need(bytes);
        int at = buf.readerIndex();
        NioViews.of(buf, at, (int) bytes).asDoubleBuffer().get(dst, offset, length);
        buf.readerIndex(at + (int) bytes);
    }
}
