package org.fastflowj.examples.a2abw;

import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;

/** A {@link Chunk} on the wire: the offset and the send time, then the bytes in one bulk copy. */
final class ChunkSerializer implements ItemSerializer<Chunk> {
    @Override
    public void write(Chunk chunk, WireOutput out) {
        out.writeLong(chunk.offset());
        out.writeLong(chunk.sentNs());
        out.writeBytes(chunk.data(), 0, chunk.data().length);
    }

    @Override
    public Chunk read(WireInput in) {
        long offset = in.readLong();
        long sentNs = in.readLong();
        byte[] data = new byte[in.readableBytes()];
        in.readBytes(data, 0, data.length);
        return new Chunk(offset, data, sentNs);
    }
}
