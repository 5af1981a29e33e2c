package org.fastflowj.bench.net;

import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;

/**
 * The custom serializer of the benchmark's payload: the array's bytes in one bulk copy each way. No
 * length of its own, because the engine already frames every item with its length ({@link
 * WireInput#readableBytes()} is exactly the array's size on the way back).
 *
 * <p>Threading: stateless.
 */
final class ByteArraySerializer implements ItemSerializer<byte[]> {
    static final ByteArraySerializer INSTANCE = new ByteArraySerializer();

    @Override
    public void write(byte[] item, WireOutput out) {
        out.writeBytes(item, 0, item.length);
    }

    @Override
    public byte[] read(WireInput in) {
        byte[] item = new byte[in.readableBytes()];
        in.readBytes(item, 0, item.length);
        return item;
    }
}
