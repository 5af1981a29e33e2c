package org.fastflowj.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The window's key table against a HashMap, with keys that collide, removals, growth and reuse, and
 * {@code Long} and {@code Integer} keys (kept inline) among object keys of the same hashes.
 */
class KeyTableTest {
    /** A key whose hash is chosen, so tests can crowd one probe run with many keys. */
    private record Colliding(int id, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Colliding c && c.id == id;
        }
    }

    @Test
    void agreesWithAHashMapThroughRandomInsertsUpdatesAndRemovals() {
        SplittableRandom random = new SplittableRandom(7);
        KeyTable table = new KeyTable();
        Map<Object, Object[]> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            int id = random.nextInt(3_000);
            // Few distinct hashes: long probe runs, and removals that must move entries back across them. A
            // Long, an Integer and a Colliding of the same value share a hash and stay three keys.
            Object key = id == 0 ? null : mixed(id % 3, random.nextInt(4) == 0 ? id : id % 37, id);
            int op = random.nextInt(10);
            if (op < 6) {
                int slot = table.slotOf(key);
                table.setValueAt(slot, "v" + step);
                table.setCountAt(slot, table.countAt(slot) + 1);
                Object[] before = reference.get(key);
                reference.put(key, new Object[] {"v" + step, before == null ? 1 : (int) before[1] + 1});
            } else if (op < 9) {
                int slot = table.find(key);
                if (slot >= 0) {
                    table.removeAt(slot);
                }
                assertEquals(reference.remove(key) != null, slot >= 0, "presence of " + key);
            } else {
                Object[] expected = reference.get(key);
                assertEquals(expected == null ? null : expected[0], table.get(key), "value of " + key);
            }
            assertEquals(reference.size(), table.size());
        }
        assertSameEntries(reference, table);
    }

    @Test
    void sumsMoveWithTheirKeysThroughRemovalsAndGrowth() {
        SplittableRandom random = new SplittableRandom(11);
        KeyTable table = KeyTable.ofSums();
        Map<Object, Long> reference = new HashMap<>();
        for (int step = 0; step < 100_000; step++) {
            int id = random.nextInt(2_000);
            Object key = mixed(id % 3, random.nextInt(29), id);
            if (random.nextInt(4) > 0) {
                long v = random.nextLong(1, 1000);
                table.addToSum(table.slotOf(key), v);
                reference.merge(key, v, Long::sum);
            } else {
                int slot = table.find(key);
                if (slot >= 0) {
                    assertEquals(reference.remove(key), table.sumAt(slot), "sum of " + key);
                    table.removeAt(slot);
                } else {
                    assertNull(reference.get(key));
                }
            }
        }
        assertEquals(reference.size(), table.size());
        reference.forEach((k, v) -> assertEquals(v, table.sumAt(table.find(k)), "sum of " + k));
        table.clear();
        assertEquals(0, table.sumAt(table.slotOf(reference.keySet().iterator().next())));
    }

    @Test
    void aKeyOfAnotherTableIsFoundAndAddedAsItself() {
        KeyTable frame = new KeyTable();
        KeyTable running = new KeyTable();
        for (int k = 0; k < 10_000; k++) {
            Object key = mixed(k % 3, k % 101, k);
            frame.setValueAt(frame.slotOf(key), key);
            if (k % 2 == 0) {
                running.setValueAt(running.slotOf(key), "before");
            }
        }
        for (int slot = 0; slot < frame.slots(); slot++) {
            if (frame.used(slot)) {
                Object key = frame.keyAt(slot);
                int found = running.findLike(frame, slot);
                assertEquals(running.find(key), found, "key " + key);
                int added = running.slotOfLike(frame, slot);
                assertEquals(key, running.keyAt(added));
                running.setValueAt(added, key);
            }
        }
        assertEquals(10_000, running.size());
        for (int k = 0; k < 10_000; k++) {
            Object key = mixed(k % 3, k % 101, k);
            assertEquals(key, running.get(key));
        }
    }

    @Test
    void anInlineKeyIsGivenBackEqualWithoutHoldingTheRecordsObject() {
        KeyTable table = new KeyTable();
        Long big = 1L << 40;
        Integer negative = -70_000;
        table.setValueAt(table.slotOf(big), "long");
        table.setValueAt(table.slotOf(negative), "int");
        table.setValueAt(table.slotOf(1L << 40 | 0L), "long again");
        assertEquals(2, table.size());
        assertEquals("long again", table.get(Long.valueOf(1L << 40)));
        assertEquals("int", table.get(Integer.valueOf(-70_000)));
        assertNull(table.get((long) -70_000), "a Long never equals an Integer");
        assertNull(table.get((int) (1L << 40)));
        // 5L and 5 have the same hash, so they meet on one probe run: still two keys
        table.setValueAt(table.slotOf(5L), "long 5");
        table.setValueAt(table.slotOf(5), "int 5");
        assertEquals("long 5", table.get(5L));
        assertEquals("int 5", table.get(5));
        KeyTable other = new KeyTable();
        other.setValueAt(other.slotOf(5), "other int 5");
        assertEquals("int 5", table.valueAt(table.findLike(other, other.find(5))));
        int slot = table.find(big);
        assertEquals(big, table.keyAt(slot));
        assertNotSame(big, table.keyAt(slot));
    }

    @Test
    void aClearedTableIsEmptyAndServesAgain() {
        KeyTable table = new KeyTable();
        for (int round = 0; round < 3; round++) {
            int keys = round == 1 ? 50_000 : 40;
            for (int k = 0; k < keys; k++) {
                table.setValueAt(table.slotOf(k), k + round);
            }
            assertEquals(keys, table.size());
            for (int k = 0; k < keys; k++) {
                assertEquals(k + round, table.get(k));
            }
            table.clear();
            assertTrue(table.isEmpty());
            assertNull(table.get(0));
            for (int slot = 0; slot < table.slots(); slot++) {
                assertTrue(!table.used(slot) && table.countAt(slot) == 0 && table.valueAt(slot) == null);
            }
        }
    }

    /**
     * A key of one of three kinds: 0 a Colliding with the given hash, 1 a Long of that hash (one per id and
     * hash), 2 the Integer {@code id} (whose hash is {@code id}).
     */
    private static Object mixed(int kind, int hash, int id) {
        return switch (kind) {
            case 0 -> new Colliding(id, hash);
            case 1 -> (long) id << 32 | ((hash ^ id) & 0xFFFF_FFFFL); // Long.hashCode: high ^ low = hash
            default -> id;
        };
    }

    private static void assertSameEntries(Map<Object, Object[]> reference, KeyTable table) {
        Map<Object, Object[]> seen = new HashMap<>();
        for (int slot = 0; slot < table.slots(); slot++) {
            if (table.used(slot)) {
                seen.put(table.keyAt(slot), new Object[] {table.valueAt(slot), table.countAt(slot)});
            }
        }
        assertEquals(reference.keySet(), seen.keySet());
        reference.forEach((k, v) -> {
            assertEquals(v[0], seen.get(k)[0], "value of " + k);
            assertEquals(v[1], seen.get(k)[1], "count of " + k);
        });
    }
}
