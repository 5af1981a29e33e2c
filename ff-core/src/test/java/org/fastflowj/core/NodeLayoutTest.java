package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node's last fields (a user's per-item counters) must not share a cache line with the object allocated
 * next, often the next stage's node, whose header its own thread reads on every item (the class word, for
 * the call of {@code svc}): nodes allocated one after the other are kept at least a cache-line pair apart.
 * Its first fields it writes per item (the GO_ON/EOS signal) lie a cache-line pair after its start, away
 * from the object before it, with no padding class in {@code Node}'s public hierarchy.
 * Measured from the addresses the JVM gave, through {@code sun.misc.Unsafe}, calibrated by two arrays whose
 * sizes differ by a known 128 bytes, so the test holds with or without compressed references.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NodeLayoutTest {
    private static final long GAP = 128;
    private static final int ATTEMPTS = 25;

    private static Object unsafe;
    private static Method objectFieldOffset;
    private static Method getInt;
    private static Method getLong;
    private static long arrayBase;
    private static int referenceSize;

    /** A user's node: a per-item counter as its last field. */
    static final class Counting extends Node<Object, Object> {
        long seen;

        @Override
        protected Object svc(Object item) {
            seen++;
            return item;
        }
    }

    @BeforeAll
    static void unsafe() throws Exception {
        Class<?> type = Class.forName("sun.misc.Unsafe");
        Field field = type.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        unsafe = field.get(null);
        objectFieldOffset = type.getMethod("objectFieldOffset", Field.class);
        getInt = type.getMethod("getInt", Object.class, long.class);
        getLong = type.getMethod("getLong", Object.class, long.class);
        arrayBase = (int) type.getMethod("arrayBaseOffset", Class.class).invoke(unsafe, Object[].class);
        referenceSize = (int) type.getMethod("arrayIndexScale", Class.class).invoke(unsafe, Object[].class);
    }

    /** The reference to {@code o} as stored in an array: an address, or a compressed one. */
    private static long reference(Object o) throws Exception {
        Object[] holder = {o};
        return referenceSize == 4
                ? ((int) getInt.invoke(unsafe, holder, arrayBase)) & 0xFFFF_FFFFL
                : (long) getLong.invoke(unsafe, holder, arrayBase);
    }

    /** Bytes per unit of reference difference, from two allocations 128 bytes apart in size. */
    private static long bytesPerUnit() throws Exception {
        Map<Long, Integer> seen = new HashMap<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            long[] small = new long[14];
            Object afterSmall = new Object();
            long[] large = new long[30];
            Object afterLarge = new Object();
            long units = (reference(afterLarge) - reference(large)) - (reference(afterSmall) - reference(small));
            if (units > 0 && 128 % units == 0) {
                seen.merge(128 / units, 1, Integer::sum);
            }
        }
        return seen.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow(() -> new AssertionError("no consistent allocation found to calibrate with"))
                .getKey();
    }

    /** Where the object's fields end, from its class chain's field offsets (a field is at most 8 bytes). */
    private static long endOfFields(Class<?> type) throws Exception {
        long end = 0;
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    end = Math.max(end, (long) objectFieldOffset.invoke(unsafe, f) + 8);
                }
            }
        }
        return end;
    }

    @Test
    void shouldKeepTheNextAllocatedNodeTwoCacheLinesAfterANodesLastField() throws Exception {
        long unit = bytesPerUnit();
        long fieldsEnd = endOfFields(Counting.class);
        long closest = Long.MAX_VALUE;
        for (int i = 0; i < ATTEMPTS; i++) {
            Counting first = new Counting();
            Counting second = new Counting();
            long distance = (reference(second) - reference(first)) * unit;
            if (distance > 0) {
                closest = Math.min(closest, distance - fieldsEnd);
            }
        }
        assertThat(closest)
                .as("bytes between a node's last field and the next node allocated after it")
                .isGreaterThanOrEqualTo(GAP);
    }

    @Test
    void shouldKeepEveryFieldANodeWritesTwoCacheLinesAfterTheNodesStart() throws Exception {
        assertThat(Node.class.getSuperclass()).as("Node's superclass").isEqualTo(BuildingBlock.class);
        int checked = 0;
        for (Class<?> c = Counting.class; c != BuildingBlock.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                assertThat((long) objectFieldOffset.invoke(unsafe, f))
                        .as("offset of %s.%s from the node's start", c.getSimpleName(), f.getName())
                        .isGreaterThanOrEqualTo(GAP);
                checked++;
            }
        }
        assertThat(checked).as("fields checked").isGreaterThan(5);
    }
}
