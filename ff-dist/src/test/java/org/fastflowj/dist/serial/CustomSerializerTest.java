package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A user's ItemSerializer replaces Kryo for exactly its class. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CustomSerializerTest {

    /**
     * A matrix Kryo cannot carry here: its class is neither registered nor in an allowed package, and it holds a
     * direct ByteBuffer. Only the custom serializer can move it.
     */
    static final class Matrix {
        final int rows;
        final int cols;
        final double[] values;
        final ByteBuffer tag;

        Matrix(int rows, int cols, double[] values, ByteBuffer tag) {
            this.rows = rows;
            this.cols = cols;
            this.values = values;
            this.tag = tag;
        }
    }

    static final class MatrixSerializer implements ItemSerializer<Matrix> {
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public void write(Matrix m, WireOutput out) {
            writes.incrementAndGet();
            out.writeInt(m.rows);
            out.writeInt(m.cols);
            out.writeDoubles(m.values, 0, m.values.length);
            out.writeInt(m.tag.remaining());
            out.writeBytes(m.tag.duplicate());
        }

        @Override
        public Matrix read(WireInput in) {
            reads.incrementAndGet();
            int rows = in.readInt();
            int cols = in.readInt();
            double[] values = new double[rows * cols];
            in.readDoubles(values, 0, values.length);
            ByteBuffer tag = ByteBuffer.allocateDirect(in.readInt());
            in.readBytes(tag);
            return new Matrix(rows, cols, values, tag.flip());
        }
    }

    /** Reads one int fewer than it wrote. */
    static final class SloppySerializer implements ItemSerializer<Matrix> {
        @Override
        public void write(Matrix m, WireOutput out) {
            out.writeInt(m.rows);
            out.writeInt(m.cols);
        }

        @Override
        public Matrix read(WireInput in) {
            return new Matrix(in.readInt(), 0, new double[0], ByteBuffer.allocate(0));
        }
    }

    private static Matrix sample() {
        double[] values = new double[6];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 1.5;
        }
        ByteBuffer tag = ByteBuffer.allocateDirect(3).put(new byte[] {7, 8, 9}).flip();
        return new Matrix(2, 3, values, tag);
    }

    @Test
    void theCustomSerializerCarriesAClassKryoWouldRefuse() {
        MatrixSerializer serializer = new MatrixSerializer();
        SerializationConfig config = SerializationConfig.builder()
                .serializer(Matrix.class, serializer)
                .build();
        Matrix back = (Matrix) Buffers.acrossBothBufferKinds(new ItemCodec(config), new ItemCodec(config), sample());
        assertThat(back.rows).isEqualTo(2);
        assertThat(back.cols).isEqualTo(3);
        assertThat(back.values).containsExactly(0, 1.5, 3, 4.5, 6, 7.5);
        assertThat(back.tag.get(0)).isEqualTo((byte) 7);
        assertThat(back.tag.remaining()).isEqualTo(3);
        assertThat(serializer.writes).hasValue(2);
        assertThat(serializer.reads).hasValue(2);

        assertThatThrownBy(() -> new ItemCodec(SerializationConfig.defaults()).roundTrip(sample()))
                .isInstanceOf(ClassNotAllowedException.class);
    }

    @Test
    void theBulkDoublesAreWrittenBigEndianAfterTheTagAndLength() {
        SerializationConfig config = SerializationConfig.builder()
                .serializer(Matrix.class, new MatrixSerializer())
                .build();
        Buffers.withDirect(buf -> {
            new ItemCodec(config).write(sample(), buf);
            assertThat((int) buf.getUnsignedByte(0)).isEqualTo(1); // first custom serializer
            assertThat(buf.getInt(1)).isEqualTo(4 + 4 + 6 * 8 + 4 + 3);
            assertThat(buf.getDouble(ItemCodec.HEADER_BYTES + 8 + 8)).isEqualTo(1.5);
            return null;
        });
    }

    @Test
    void aSerializerThatLeavesBytesUnreadIsReportedAsCorrupt() {
        SerializationConfig config = SerializationConfig.builder()
                .serializer(Matrix.class, new SloppySerializer())
                .build();
        ItemCodec codec = new ItemCodec(config);
        assertThatThrownBy(() -> codec.roundTrip(sample()))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("4 bytes")
                .hasMessageContaining("unread");
    }

    @Test
    void aCustomTagTheReceiverDoesNotKnowIsReportedAsCorrupt() {
        SerializationConfig withSerializer = SerializationConfig.builder()
                .serializer(Matrix.class, new MatrixSerializer())
                .build();
        Buffers.withHeap(buf -> {
            new ItemCodec(withSerializer).write(sample(), buf);
            assertThatThrownBy(() -> new ItemCodec(SerializationConfig.defaults()).read(buf))
                    .isInstanceOf(CorruptFrameException.class)
                    .hasMessageContaining("custom serializer");
            assertThat(buf.readerIndex()).isZero();
            return null;
        });
    }
}
