package org.fastflowj.core.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.runtime.channel.Parker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Guards the false-sharing layout of a node runner (the JCTools PadClassAssertions idea): the park state
 * other threads read on every item must sit at least a cache-line pair away from the object's start,
 * from the runner's own per-item fields, and those fields from the object's end. A new field or a JVM
 * that packs fields differently fails this test instead of silently costing half the throughput.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParkingStateLayoutTest {
    private static final long GAP = 128;
    private static Object unsafe;
    private static Method objectFieldOffset;

    @BeforeAll
    static void unsafe() throws Exception {
        Class<?> type = Class.forName("sun.misc.Unsafe");
        Field field = type.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        unsafe = field.get(null);
        objectFieldOffset = type.getMethod("objectFieldOffset", Field.class);
    }

    private static long offset(Field f) throws Exception {
        return (long) objectFieldOffset.invoke(unsafe, f);
    }

    @Test
    void shouldKeepTheParkStateTwoCacheLinesAwayFromEverythingThatChangesPerItem() throws Exception {
        Class<?> padded = Class.forName(NodeRunner.class.getName() + "$Padded");
        long state = offset(Parker.class.getDeclaredField("state"));
        assertThat(state).as("park state offset from the object start").isGreaterThanOrEqualTo(GAP);

        long lastPerItemField = 0;
        int perItemFields = 0;
        // the runner's own fields, down to the park state's trailing padding
        for (Class<?> c = NodeRunner.class; c.getSuperclass() != Parker.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
                    continue; // written once, before the thread starts: harmless next to anything
                }
                long at = offset(f);
                assertThat(Math.abs(at - state))
                        .as("distance of %s.%s from the park state", c.getSimpleName(), f.getName())
                        .isGreaterThanOrEqualTo(GAP);
                lastPerItemField = Math.max(lastPerItemField, at);
                perItemFields++;
            }
        }
        assertThat(perItemFields)
                .as("per-item fields found in the runner's class chain")
                .isGreaterThan(8);
        long firstTrailingPad = Long.MAX_VALUE;
        long lastTrailingPad = 0;
        for (Field f : padded.getDeclaredFields()) {
            long at = offset(f);
            firstTrailingPad = Math.min(firstTrailingPad, at);
            lastTrailingPad = Math.max(lastTrailingPad, at + 8);
        }
        assertThat(firstTrailingPad)
                .as("trailing padding comes after the per-item fields")
                .isGreaterThan(lastPerItemField);
        assertThat(lastTrailingPad - lastPerItemField)
                .as("trailing padding after the last per-item field")
                .isGreaterThanOrEqualTo(GAP);
    }

    /**
     * Each side of a runner ({@link InputChannels}, {@link OutputChannels}) is an object of its own whose
     * fields its thread writes per item: at least a cache-line pair from the object's start (the object
     * before it) and from its end (the object after it).
     */
    @Test
    void shouldPadEachSideOfARunnerAtBothEnds() throws Exception {
        for (Class<?> side : new Class<?>[] {InputChannels.class, OutputChannels.class}) {
            Class<?> padded = Class.forName(side.getName() + "$Padded");
            long firstField = Long.MAX_VALUE;
            long lastField = 0;
            int perItemFields = 0;
            for (Field f : side.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                long at = offset(f);
                firstField = Math.min(firstField, at);
                lastField = Math.max(lastField, at);
                if (!Modifier.isFinal(f.getModifiers())) {
                    perItemFields++;
                }
            }
            assertThat(perItemFields)
                    .as("per-item fields of %s", side.getSimpleName())
                    .isGreaterThan(3);
            assertThat(firstField)
                    .as("first field of %s from the object start", side.getSimpleName())
                    .isGreaterThanOrEqualTo(GAP);
            long firstTrailingPad = Long.MAX_VALUE;
            long lastTrailingPad = 0;
            for (Field f : padded.getDeclaredFields()) {
                long at = offset(f);
                firstTrailingPad = Math.min(firstTrailingPad, at);
                lastTrailingPad = Math.max(lastTrailingPad, at + 8);
            }
            assertThat(firstTrailingPad)
                    .as("%s's trailing padding comes after its fields", side.getSimpleName())
                    .isGreaterThan(lastField);
            assertThat(lastTrailingPad - lastField)
                    .as("trailing padding after %s's last field", side.getSimpleName())
                    .isGreaterThanOrEqualTo(GAP);
        }
    }
}
