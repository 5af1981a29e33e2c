package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.patterns.crossing.CrossingParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Macro data-flow parameters over one link, encoded by the sending group's codec and decoded by the
 * receiving group's, task after task: what crosses in full and what as a reference, and that both sides
 * agree on what the receiver keeps.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CachedParametersTest {
    /** What carries the parameters, as a macro data-flow task does: a field of their (final) class. */
    record Carrier(CrossingParameters parameters) {}

    private static final SerializationConfig SERIALIZATION =
            SerializationConfig.builder().register(Carrier.class).build();
    /** A block as the matmul example has them: 32 x 32 doubles, 8 KiB. */
    private static final int BLOCK = 32 * 32;

    private static final long A = 10;
    private static final long B = 11;
    private static final long C = 12;

    private ItemCodec sender = new ItemCodec(SERIALIZATION, 1000, 1L << 20);
    private ItemCodec receiver = new ItemCodec(SERIALIZATION, 1000, 1L << 20);
    /** Bytes of the last item on the wire. */
    private int lastBytes;

    private static double[] block(double value) {
        double[] block = new double[BLOCK];
        Arrays.fill(block, value);
        return block;
    }

    /** A task's parameters: {@code objects[i]} is identity {@code ids[i]} in version {@code versions[i]}. */
    private static CrossingParameters task(Object[] objects, boolean[] written, long[] ids, int[] versions) {
        return new CrossingParameters(objects, written, ids, versions);
    }

    /** gemm(a, b, c): reads a and b, writes c. */
    private static CrossingParameters gemm(double[] a, int va, double[] b, int vb, double[] c, int vc) {
        return task(
                new Object[] {a, b, c}, new boolean[] {false, false, true}, new long[] {A, B, C}, new int[] {va, vb, vc
                });
    }

    private CrossingParameters cross(CrossingParameters parameters) {
        ByteBuf wire = Unpooled.buffer();
        try {
            sender.startBatch();
            sender.write(new Carrier(parameters), wire);
            lastBytes = wire.readableBytes();
            receiver.startBatch();
            return ((Carrier) receiver.read(wire)).parameters();
        } finally {
            wire.release();
        }
    }

    @Test
    void shouldSendAnUnchangedValueOnceAndThenAsAReference() {
        double[] a = block(1);
        double[] b = block(2);
        double[] c = block(0);

        CrossingParameters first = cross(gemm(a, 0, b, 0, c, 0));
        int firstBytes = lastBytes;
        CrossingParameters second = cross(gemm(a, 0, b, 0, c, 1)); // the first task wrote c there

        assertThat(firstBytes).isGreaterThan(3 * BLOCK * Double.BYTES);
        assertThat(lastBytes).as("three references").isLessThan(32);
        assertThat(second.value(0)).isSameAs(first.value(0));
        assertThat(second.value(1)).isSameAs(first.value(1));
        assertThat(second.value(2))
                .as("the value the first task wrote in place")
                .isSameAs(first.value(2));
        assertThat(second.written(2)).isTrue();
        assertThat(second.identified())
                .as("a worker group's copy goes back without identities")
                .isFalse();
        assertThat(sender.heldValues().referencesSent()).isEqualTo(3);
    }

    @Test
    void shouldSendAChangedValueAgainAndKeepTheNewOne() {
        double[] a = block(1);
        CrossingParameters first = cross(gemm(a, 0, block(2), 0, block(0), 0));

        double[] a1 = block(5); // written by a task that ran elsewhere: version 1 there
        CrossingParameters second = cross(gemm(a1, 1, block(2), 0, block(0), 1));

        assertThat(second.value(0)).isNotSameAs(first.value(0));
        assertThat((double[]) second.value(0)).containsOnly(5.0);
        assertThat(second.value(1)).as("unchanged").isSameAs(first.value(1));
        assertThat(lastBytes).isBetween(BLOCK * Double.BYTES, 2 * BLOCK * Double.BYTES);
        CrossingParameters third = cross(gemm(a1, 1, block(2), 0, block(0), 2));
        assertThat(third.value(0)).as("the new version, kept").isSameAs(second.value(0));
        assertThat(receiver.keptValues().size()).isEqualTo(3);
    }

    @Test
    void shouldSendAValueAgainWhenTheGroupWroteAnotherVersionThanTheTaskReads() {
        double[] c = block(0);
        cross(gemm(block(1), 0, block(2), 0, c, 0)); // the group writes c: it holds version 1

        cross(gemm(block(1), 0, block(2), 0, c, 0)); // a task that reads version 0 (as after a lost group)

        assertThat(lastBytes).as("c in full, the others referred to").isBetween(BLOCK * Double.BYTES, 9000);
    }

    @Test
    void shouldDropTheLeastRecentlyUsedPastTheBoundAndTellTheReceiver() {
        long bound = 2 * (BLOCK * Double.BYTES + 100);
        sender = new ItemCodec(SERIALIZATION, 1000, bound);
        receiver = new ItemCodec(SERIALIZATION, 1000, bound);
        double[] a = block(1);
        double[] b = block(2);
        double[] c = block(3);
        CrossingParameters readA = readOnly(a, A);
        CrossingParameters readB = readOnly(b, B);
        cross(readA);
        cross(readB);
        cross(readA); // a is the most recently used now: b goes first
        assertThat(lastBytes).isLessThan(16);

        cross(readOnly(c, C));

        assertThat(sender.heldValues().size()).isEqualTo(2);
        assertThat(receiver.keptValues().size()).isEqualTo(2);
        assertThat(receiver.keptValues().weight())
                .isEqualTo(sender.heldValues().weight())
                .isLessThanOrEqualTo(bound);
        cross(readA);
        assertThat(lastBytes).as("a is kept").isLessThan(16);
        cross(readB);
        assertThat(lastBytes).as("b was dropped, so it crosses again").isGreaterThan(BLOCK * Double.BYTES);
        assertThat(receiver.keptValues().size()).isEqualTo(2);
    }

    @Test
    void shouldNotKeepAValueLargerThanTheBoundButStillDeliverIt() {
        sender = new ItemCodec(SERIALIZATION, 1000, 1000);
        receiver = new ItemCodec(SERIALIZATION, 1000, 1000);

        CrossingParameters crossed = cross(readOnly(block(7), A));

        assertThat((double[]) crossed.value(0)).containsOnly(7.0);
        assertThat(receiver.keptValues().size()).isZero();
        cross(readOnly(block(7), A));
        assertThat(lastBytes).isGreaterThan(BLOCK * Double.BYTES);
    }

    @Test
    void shouldSendEverythingInFullWithoutIdentitiesWhenTheBoundIsZero() {
        sender = new ItemCodec(SERIALIZATION, 1000, 0);
        receiver = new ItemCodec(SERIALIZATION, 1000, 0);
        double[] a = block(1);

        cross(gemm(a, 0, block(2), 0, block(3), 0));
        cross(gemm(a, 0, block(2), 0, block(3), 1));

        assertThat(lastBytes).isGreaterThan(3 * BLOCK * Double.BYTES);
        assertThat(receiver.keptValues().size()).isZero();
    }

    @Test
    void shouldBringWrittenValuesBackInFullAndNullsForTheOthers() {
        double[] c = block(4);
        CrossingParameters back =
                cross(new CrossingParameters(new Object[] {null, null, c}, new boolean[] {false, false, true}));

        assertThat(back.value(0)).isNull();
        assertThat((double[]) back.value(2)).containsOnly(4.0);
        assertThat(back.written(2)).isTrue();
        assertThat(lastBytes).isBetween(BLOCK * Double.BYTES, BLOCK * Double.BYTES + 32);
    }

    @Test
    void shouldRefuseAReferenceToAValueTheReceiverDoesNotKeep() {
        double[] a = block(1);
        cross(readOnly(a, A));
        receiver = new ItemCodec(SERIALIZATION, 1000, 1L << 20); // another receiver: it never got a

        assertThatThrownBy(() -> cross(readOnly(a, A)))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("names parameter value #10, which this group does not keep");
    }

    @Test
    void shouldRefuseAnEvictionOfAValueTheReceiverDoesNotKeep() {
        long bound = BLOCK * Double.BYTES + 100;
        sender = new ItemCodec(SERIALIZATION, 1000, bound);
        receiver = new ItemCodec(SERIALIZATION, 1000, bound);
        cross(readOnly(block(1), A));
        receiver = new ItemCodec(SERIALIZATION, 1000, bound);

        assertThatThrownBy(() -> cross(readOnly(block(2), B))) // evicts a, which this receiver never kept
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("evicts parameter value #10, which this group does not keep");
    }

    @Test
    void shouldRefuseToKeepMoreThanTheReceiversBound() {
        receiver = new ItemCodec(SERIALIZATION, 1000, 1000); // the sender thinks it may keep 1 MiB

        assertThatThrownBy(() -> cross(readOnly(block(1), A)))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("more than its maxCachedBytesPerLink (1000)");
    }

    @Test
    void shouldWriteAnItemAgainAsIfTheFirstWritingHadNeverBeen() {
        double[] a = block(1);
        ByteBuf cutOff = Unpooled.buffer();
        sender.startBatch();
        sender.write(new Carrier(readOnly(a, A)), cutOff);
        cutOff.release();
        sender.unwriteLast(); // as a batch writer does when the item does not fit its frame

        CrossingParameters crossed = cross(readOnly(a, A));

        assertThat(lastBytes).as("in full again").isGreaterThan(BLOCK * Double.BYTES);
        assertThat((double[]) crossed.value(0)).containsOnly(1.0);
        assertThat(sender.heldValues().size()).isEqualTo(1);
        cross(readOnly(a, A));
        assertThat(lastBytes).isLessThan(16);
    }

    @Test
    void shouldTakeBackDroppedValuesWithTheItemThatDroppedThem() {
        long bound = BLOCK * Double.BYTES + 100;
        sender = new ItemCodec(SERIALIZATION, 1000, bound);
        receiver = new ItemCodec(SERIALIZATION, 1000, bound);
        cross(readOnly(block(1), A));
        ByteBuf cutOff = Unpooled.buffer();
        sender.startBatch();
        sender.write(new Carrier(readOnly(block(2), B)), cutOff); // drops a to make room
        cutOff.release();
        sender.unwriteLast();

        cross(readOnly(block(1), A));

        assertThat(lastBytes).as("a is still kept on both sides").isLessThan(16);
        assertThat(sender.heldValues().weight()).isEqualTo(receiver.keptValues().weight());
    }

    private static CrossingParameters readOnly(double[] value, long id) {
        return task(new Object[] {value}, new boolean[] {false}, new long[] {id}, new int[] {0});
    }
}
