package org.fastflowj.examples.a2abw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.examples.InputException;

/**
 * L-Worker {@code i} of {@code L}: reads the contiguous part {@code [i*size/L, (i+1)*size/L)} of the file
 * in chunks and sends each to the R-Worker owning those bytes (R-Worker {@code j} owns
 * {@code [j*size/R, (j+1)*size/R)}); a chunk never straddles two owners.
 */
final class PartReader extends MultiOutputNode<Void, Chunk> {
    private final Path file;
    private final int parts;
    private final int chunkBytes;

    PartReader(Path file, int parts, int chunkBytes) {
        this.file = file;
        this.parts = parts;
        this.chunkBytes = chunkBytes;
    }

    @Override
    protected Chunk svc(Void none) {
        int owners = outputChannels();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long position = size * id() / parts;
            long end = size * (id() + 1) / parts;
            while (position < end) {
                int owner = (int) Math.min(owners - 1, position * owners / size);
                while (size * (owner + 1) / owners <= position) {
                    owner++; // rounding: the first owner whose part ends after position
                }
                long ownerEnd = size * (owner + 1) / owners;
                int length = (int) Math.min(chunkBytes, Math.min(end, ownerEnd) - position);
                ByteBuffer buffer = ByteBuffer.allocate(length);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        throw new InputException(file + ": shorter than " + size + " bytes while reading");
                    }
                }
                sendOutTo(new Chunk(position, buffer.array(), Chunk.epochNanos()), owner);
                position += length;
            }
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + e.getMessage(), e);
        }
        return eos();
    }
}
