package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Running out of memory while an item is read or written is this JVM's trouble, not the item's: it goes
 * on as the {@link OutOfMemoryError} it is (the node thread then halts the JVM), never as a malformed item.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LocalOutOfMemoryTest {
    record Blob(int size) {}

    /** Reads and writes like a real serializer until told to run out of memory, or to wrap that in its own exception. */
    static final class StarvedSerializer implements ItemSerializer<Blob> {
        boolean starveOnRead;
        boolean starveOnWrite;
        boolean wrapInIoException;

        @Override
        public void write(Blob item, WireOutput out) throws Exception {
            if (starveOnWrite) {
                throw starved();
            }
            out.writeInt(item.size());
        }

        @Override
        public Blob read(WireInput in) throws Exception {
            int size = in.readInt();
            if (starveOnRead) {
                throw starved();
            }
            return new Blob(size);
        }

        private Exception starved() throws IOException {
            OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
            if (wrapInIoException) {
                return new IOException("could not buffer the blob", oom);
            }
            throw oom;
        }
    }

    private final StarvedSerializer serializer = new StarvedSerializer();
    private final ItemCodec codec = new ItemCodec(
            SerializationConfig.builder().serializer(Blob.class, serializer).build());

    private ByteBuf written(Blob item) {
        ByteBuf buf = Unpooled.buffer();
        codec.startBatch();
        codec.write(item, buf);
        codec.startBatch();
        return buf;
    }

    @Test
    void shouldPassAnOutOfMemoryWhileReadingOnAsItIsAndLeaveTheReaderIndex() {
        ByteBuf buf = written(new Blob(7));
        serializer.starveOnRead = true;

        assertThatThrownBy(() -> codec.read(buf))
                .isExactlyInstanceOf(OutOfMemoryError.class)
                .hasMessage("Java heap space");
        assertThat(buf.readerIndex()).isZero();

        serializer.starveOnRead = false; // memory is back: the same bytes read fine
        assertThat(codec.read(buf)).isEqualTo(new Blob(7));
    }

    @Test
    void shouldFindAnOutOfMemoryUnderTheSerializersOwnException() {
        ByteBuf buf = written(new Blob(7));
        serializer.starveOnRead = true;
        serializer.wrapInIoException = true;

        assertThatThrownBy(() -> codec.read(buf)).isExactlyInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void shouldPassAnOutOfMemoryWhileWritingOnAsItIsAndWriteNothing() {
        ByteBuf buf = Unpooled.buffer();
        serializer.starveOnWrite = true;

        assertThatThrownBy(() -> codec.write(new Blob(7), buf)).isExactlyInstanceOf(OutOfMemoryError.class);
        assertThat(buf.writerIndex()).isZero();
    }

    @Test
    void shouldStillCallGarbageAMalformedItem() {
        ByteBuf buf = written(new Blob(7));
        buf.setByte(0, 42); // a tag naming a serializer that does not exist

        assertThatThrownBy(() -> codec.read(buf)).isInstanceOf(CorruptFrameException.class);
    }
}
