package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.Colour;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Items come back equal after crossing a (simulated) group boundary. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ItemCodecRoundTripTest {

    record Point(int x, int y) {}

    record Segment(Point from, Point to, String label) {}

    record Path(List<Segment> segments, Map<String, Point> landmarks) {}

    /** A POJO Kryo builds through its no-arg constructor. */
    static final class WithNoArg {
        String name;
        long[] values;

        WithNoArg() {}

        WithNoArg(String name, long[] values) {
            this.name = name;
            this.values = values;
        }
    }

    /** A POJO without a no-arg constructor: needs the Objenesis fallback. */
    static final class WithoutNoArg {
        final String name;
        final int size;

        WithoutNoArg(String name, int size) {
            this.name = Objects.requireNonNull(name);
            this.size = size;
        }
    }

    private static final SerializationConfig CONFIG = SerializationConfig.builder()
            .allowPackage("org.fastflowj.dist.serial")
            .allowPackage("com.acme")
            .build();

    private final ItemCodec sender = new ItemCodec(CONFIG);
    private final ItemCodec receiver = new ItemCodec(CONFIG);

    private Object across(Object item) {
        return Buffers.acrossBothBufferKinds(sender, receiver, item);
    }

    @Test
    void boxesStringsAndNullComeBackEqual() {
        for (Object item : List.of(42, 7L, 3.5, 'c', true, (byte) 1, (short) 2, 1.5f, "héllo", "")) {
            assertThat(across(item)).isEqualTo(item);
        }
        assertThat(across(null)).isNull();
    }

    @Test
    void primitiveArraysComeBackEqual() {
        assertThat((byte[]) across(new byte[] {1, 2, 3})).containsExactly(1, 2, 3);
        assertThat((int[]) across(new int[] {-1, 0, Integer.MAX_VALUE})).containsExactly(-1, 0, Integer.MAX_VALUE);
        assertThat((double[]) across(new double[] {Math.PI, -0.0})).containsExactly(Math.PI, -0.0);
        assertThat((boolean[]) across(new boolean[] {true, false})).containsExactly(true, false);
        assertThat((String[]) across(new String[] {"a", null})).containsExactly("a", null);
    }

    @Test
    void byteArraysTravelAsTheirBytesWithoutKryoInEitherBufferKind() {
        byte[] big = new byte[70_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31 + 1);
        }
        for (byte[] item : List.of(new byte[0], new byte[] {8, 9}, big)) {
            assertThat((byte[]) across(item)).isEqualTo(item);
        }
        ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        sender.write(new byte[] {8, 9}, buf);
        assertThat(buf.readableBytes()).isEqualTo(ItemCodec.HEADER_BYTES + 2);
        assertThat(buf.getUnsignedByte(0)).isEqualTo((short) ItemCodec.BYTES_TAG);
        assertThat(buf.getInt(1)).isEqualTo(2);
    }

    @Test
    void aByteArrayLongerThanItsItemIsCorruptAndAllocatesNothingForIt() {
        ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        buf.writeByte(ItemCodec.BYTES_TAG).writeInt(1_000_000_000).writeBytes(new byte[] {1, 2, 3});

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> receiver.read(buf))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("1000000000");
        assertThat(buf.readerIndex()).isZero();
    }

    @Test
    void aCustomSerializerForByteArraysStillWins() {
        SerializationConfig custom = SerializationConfig.builder()
                .serializer(byte[].class, new org.fastflowj.dist.ItemSerializer<byte[]>() {
                    @Override
                    public void write(byte[] item, org.fastflowj.dist.WireOutput out) {
                        out.writeInt(item.length * 10);
                    }

                    @Override
                    public byte[] read(org.fastflowj.dist.WireInput in) {
                        return new byte[in.readInt() / 10];
                    }
                })
                .build();
        ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        new ItemCodec(custom).write(new byte[] {8, 9}, buf);

        assertThat(buf.getUnsignedByte(0)).isEqualTo((short) 1);
        assertThat((byte[]) new ItemCodec(custom).read(buf)).hasSize(2);
    }

    @Test
    void nestedRecordsComeBackEqualThroughKryosRecordSerializer() {
        Path path = new Path(
                List.of(new Segment(new Point(0, 0), new Point(1, 2), "first")), Map.of("home", new Point(5, 5)));
        assertThat(across(path)).isEqualTo(path);
        GuardedKryo kryo = new GuardedKryo(CONFIG);
        assertThat(kryo.getRegistration(Point.class).getSerializer()).isInstanceOf(RecordSerializer.class);
    }

    @Test
    void pojosWithAndWithoutNoArgConstructorComeBack() {
        WithNoArg withNoArg = (WithNoArg) across(new WithNoArg("n", new long[] {1, 2}));
        assertThat(withNoArg.name).isEqualTo("n");
        assertThat(withNoArg.values).containsExactly(1, 2);
        WithoutNoArg withoutNoArg = (WithoutNoArg) across(new WithoutNoArg("w", 9));
        assertThat(withoutNoArg.name).isEqualTo("w");
        assertThat(withoutNoArg.size).isEqualTo(9);
    }

    @Test
    void mutableAndImmutableCollectionsComeBackEqual() {
        ArrayList<Object> arrayList = new ArrayList<>(List.of(1, "two", 3.0));
        HashMap<String, Integer> hashMap = new HashMap<>(Map.of("a", 1, "b", 2));
        List<Object> items = List.of(
                arrayList,
                hashMap,
                List.of(1, 2, 3),
                List.of(),
                Map.of("k", "v"),
                Map.of("k1", 1, "k2", 2, "k3", 3),
                Collections.unmodifiableList(new ArrayList<>(List.of("x", "y"))),
                Collections.unmodifiableMap(new HashMap<>(Map.of("m", 1))),
                Collections.emptyList(),
                Collections.singletonList("only"));
        for (Object item : items) {
            assertThat(across(item)).as("%s", item.getClass()).isEqualTo(item);
        }
        assertThat(across(List.of(1, 2, 3))).satisfies(list -> assertThat(list.getClass())
                .isEqualTo(List.of(1, 2, 3).getClass()));
    }

    @Test
    void valueTypesOfTheJdkComeBackEqual() {
        for (Object item : List.of(
                BigInteger.TWO.pow(100),
                new BigDecimal("12.3456"),
                Instant.ofEpochSecond(1_700_000_000L, 5),
                LocalDate.of(2025, 1, 31),
                Duration.ofMillis(1234))) {
            assertThat(across(item)).isEqualTo(item);
        }
    }

    @Test
    void enumsOfAnAllowedPackageComeBackAsTheSameConstant() {
        assertThat(across(Colour.RED)).isSameAs(Colour.RED);
        assertThat(across(Colour.GREEN)).isSameAs(Colour.GREEN);
    }

    @Test
    void severalItemsInOneBufferAreReadBackInOrder() {
        Buffers.withHeap(buf -> {
            sender.write("first", buf);
            sender.write(new Point(1, 1), buf);
            sender.write(List.of(3), buf);
            assertThat(receiver.read(buf)).isEqualTo("first");
            assertThat(receiver.read(buf)).isEqualTo(new Point(1, 1));
            assertThat(receiver.read(buf)).isEqualTo(List.of(3));
            assertThat(buf.isReadable()).isFalse();
            return null;
        });
    }

    @Test
    void roundTripReturnsAnEqualCopy() {
        Point point = new Point(3, 4);
        Object copy = sender.roundTrip(point);
        assertThat(copy).isEqualTo(point).isNotSameAs(point);
        byte[] big = new byte[200_000];
        big[199_999] = 9;
        assertThat((byte[]) sender.roundTrip(big)).isEqualTo(big);
    }

    @Test
    void registeringAClassMakesItsItemsSmaller() {
        SerializationConfig registered =
                SerializationConfig.builder().register(Point.class).build();
        int unregisteredSize = sizeOf(new ItemCodec(CONFIG), new Point(1, 2));
        int registeredSize = sizeOf(new ItemCodec(registered), new Point(1, 2));
        assertThat(registeredSize).isLessThan(unregisteredSize);
        assertThat(new ItemCodec(registered).roundTrip(new Point(1, 2))).isEqualTo(new Point(1, 2));
    }

    private static int sizeOf(ItemCodec codec, Object item) {
        return Buffers.withHeap(buf -> {
            codec.write(item, buf);
            return buf.readableBytes();
        });
    }

    @Test
    void anItemTakesAFiveByteHeaderThenItsPayload() {
        Buffers.withHeap((ByteBuf buf) -> {
            sender.write(123, buf);
            assertThat((int) buf.getUnsignedByte(0)).isEqualTo(ItemCodec.KRYO_TAG);
            assertThat(buf.getInt(1)).isEqualTo(buf.readableBytes() - ItemCodec.HEADER_BYTES);
            return null;
        });
    }
}
