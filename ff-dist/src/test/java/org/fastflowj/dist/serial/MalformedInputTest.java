package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.esotericsoftware.kryo.io.Output;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Garbage in gives a clear exception out: never an OutOfMemoryError, never a huge allocation. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MalformedInputTest {
    private static final int HUGE = 1 << 30;
    /** Far below what any of the crafted lengths would allocate (at least 1 GiB each). */
    private static final long ALLOCATION_BUDGET = 16L << 20;

    record Point(int x, int y) {}

    private static final SerializationConfig CONFIG =
            SerializationConfig.builder().register(Point.class).build();

    private final ItemCodec codec = new ItemCodec(CONFIG);

    @Test
    void randomBytesFailWithAClearException() {
        for (int seed = 0; seed < 5000; seed++) {
            Random random = new Random(seed);
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);
            readExpectingCleanOutcome(Unpooled.wrappedBuffer(bytes), seed);
        }
    }

    @Test
    void aValidHeaderOverRandomPayloadFailsWithAClearException() {
        for (int seed = 0; seed < 5000; seed++) {
            Random random = new Random(seed);
            byte[] payload = new byte[1 + random.nextInt(96)];
            random.nextBytes(payload);
            ByteBuf buf = Unpooled.buffer();
            buf.writeByte(seed % 10 == 0 ? 1 + random.nextInt(3) : ItemCodec.KRYO_TAG)
                    .writeInt(payload.length)
                    .writeBytes(payload);
            readExpectingCleanOutcome(buf, seed);
        }
    }

    private void readExpectingCleanOutcome(ByteBuf buf, int seed) {
        long before = allocatedBytes();
        try {
            codec.read(buf);
            assertThat(buf.isReadable())
                    .as("seed %d decoded but left bytes", seed)
                    .isFalse();
        } catch (CorruptFrameException | ClassNotAllowedException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            assertThat(buf.readerIndex())
                    .as("seed %d moved the reader index", seed)
                    .isZero();
        } catch (Throwable other) {
            fail("seed " + seed + " failed with " + other, other);
        } finally {
            buf.release();
        }
        assertThat(allocatedBytes() - before)
                .as("bytes allocated for seed %d", seed)
                .isLessThan(ALLOCATION_BUDGET);
    }

    @Test
    void everyTruncationOfAnItemIsReportedAsCorrupt() {
        Object item = Map.of("points", List.of(new Point(1, 2), new Point(3, 4)), "name", "truncated");
        ByteBuf whole = Unpooled.buffer();
        codec.write(item, whole);
        try {
            for (int length = 0; length < whole.readableBytes(); length++) {
                ByteBuf prefix = whole.retainedSlice(0, length);
                try {
                    assertThatThrownBy(() -> codec.read(prefix))
                            .as("prefix of %d bytes", length)
                            .isInstanceOf(CorruptFrameException.class);
                } finally {
                    prefix.release();
                }
            }
            // A header whose length is fine but whose payload is cut short inside Kryo.
            ByteBuf shortened = Unpooled.buffer();
            int payload = whole.getInt(1);
            shortened.writeByte(ItemCodec.KRYO_TAG).writeInt(payload - 3).writeBytes(whole, 5, payload - 3);
            assertThatThrownBy(() -> codec.read(shortened)).isInstanceOf(CorruptFrameException.class);
            shortened.release();
            assertThat(codec.read(whole)).isEqualTo(item);
        } finally {
            whole.release();
        }
    }

    @Test
    void aHugeLengthPrefixOfTheItemIsRefusedBeforeReading() {
        ByteBuf buf = Unpooled.buffer()
                .writeByte(ItemCodec.KRYO_TAG)
                .writeInt(Integer.MAX_VALUE)
                .writeByte(1);
        try {
            assertThatThrownBy(() -> codec.read(buf))
                    .isInstanceOf(CorruptFrameException.class)
                    .hasMessageContaining("announces " + Integer.MAX_VALUE);
        } finally {
            buf.release();
        }
    }

    @Test
    void crafted2Pow30LengthsInsideKryoAreRefusedWithoutAllocating() {
        Map<String, BiConsumer<GuardedKryo, Output>> crafted = new java.util.LinkedHashMap<>();
        crafted.put("byte[]", (kryo, out) -> lengthFirst(kryo, out, byte[].class));
        crafted.put("int[]", (kryo, out) -> lengthFirst(kryo, out, int[].class));
        crafted.put("long[]", (kryo, out) -> lengthFirst(kryo, out, long[].class));
        crafted.put("double[]", (kryo, out) -> lengthFirst(kryo, out, double[].class));
        crafted.put("char[]", (kryo, out) -> lengthFirst(kryo, out, char[].class));
        crafted.put("boolean[]", (kryo, out) -> lengthFirst(kryo, out, boolean[].class));
        crafted.put("String[]", (kryo, out) -> lengthFirst(kryo, out, String[].class));
        crafted.put("Object[]", (kryo, out) -> lengthFirst(kryo, out, Object[].class));
        crafted.put("Point[]", (kryo, out) -> lengthFirst(kryo, out, Point[].class));
        crafted.put("HashMap", (kryo, out) -> lengthFirst(kryo, out, HashMap.class));
        crafted.put("ArrayList", (kryo, out) -> {
            kryo.writeClass(out, ArrayList.class);
            out.writeVarIntFlag(false, HUGE + 1, true);
        });
        crafted.put("List.of", (kryo, out) -> {
            kryo.writeClass(out, List.of(1, 2, 3).getClass());
            out.writeVarIntFlag(false, HUGE + 1, true);
        });
        crafted.put("String", (kryo, out) -> {
            kryo.writeClass(out, String.class);
            out.writeVarIntFlag(true, HUGE + 1, true); // UTF-8 form: char count + 1
        });
        crafted.forEach((what, writer) -> {
            GuardedKryo kryo = new GuardedKryo(CONFIG);
            Output output = new Output(64, -1);
            writer.accept(kryo, output);
            output.writeBytes(new byte[16]); // a little filler, nowhere near the announced size
            ByteBuf buf = Unpooled.buffer()
                    .writeByte(ItemCodec.KRYO_TAG)
                    .writeInt(output.position())
                    .writeBytes(output.getBuffer(), 0, output.position());
            long before = allocatedBytes();
            try {
                assertThatThrownBy(() -> codec.read(buf))
                        .as(what)
                        .isInstanceOf(CorruptFrameException.class)
                        .hasMessageContaining("announces " + HUGE);
            } finally {
                buf.release();
            }
            assertThat(allocatedBytes() - before)
                    .as("bytes allocated reading %s", what)
                    .isLessThan(ALLOCATION_BUDGET);
        });
    }

    @Test
    void anItemThatBuildsMoreObjectsThanTheBoundIsRefusedNamingTheKey() {
        ItemCodec bounded = new ItemCodec(CONFIG, 10);
        ByteBuf nine = Unpooled.buffer();
        CraftedItems.listOfEmptyMaps(9, nine); // the list and its maps: 10 objects
        CraftedItems.listOfEmptyMaps(9, nine); // the bound is per item: the second reads as well
        ByteBuf ten = Unpooled.buffer();
        CraftedItems.listOfEmptyMaps(10, ten);

        assertThat((List<?>) bounded.read(nine)).hasSize(9).allMatch(m -> ((Map<?, ?>) m).isEmpty());
        assertThat((List<?>) bounded.read(nine)).hasSize(9);
        assertThatThrownBy(() -> bounded.read(ten))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("more than 10 objects")
                .hasMessageContaining("maxObjectsPerItem");
        assertThat(ten.readerIndex()).isZero();
        ByteBuf again = Unpooled.buffer();
        CraftedItems.listOfEmptyMaps(9, again);
        assertThat((List<?>) bounded.read(again))
                .as("the codec reads on after a refusal")
                .hasSize(9);
    }

    @Test
    void nullElementsCountTowardsTheBound() {
        ItemCodec bounded = new ItemCodec(CONFIG, 10);
        List<Object> mixed = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            mixed.add(i % 2 == 0 ? null : "s"); // of two kinds, so each element is written (and read) alone
        }
        ByteBuf buf = Unpooled.buffer();
        codec.write(mixed, buf);

        assertThatThrownBy(() -> bounded.read(buf)).hasMessageContaining("more than 10 objects");
    }

    @Test
    void millionsOfEmptyMapsInAFewMegabytesAreRefusedAtTheDefaultBound() {
        ByteBuf buf = Unpooled.buffer();
        CraftedItems.listOfEmptyMaps(4_200_000, buf);
        long before = allocatedBytes();

        assertThatThrownBy(() -> codec.read(buf))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("more than 1000000 objects");
        // the list's 4.2 M slots and a million maps of about 50 bytes; unbounded, 4.2 M maps would be 200 MB
        assertThat(allocatedBytes() - before).isLessThan(120L << 20);
    }

    private static void lengthFirst(GuardedKryo kryo, Output out, Class<?> type) {
        kryo.writeClass(out, type);
        out.writeVarInt(HUGE + 1, true);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
