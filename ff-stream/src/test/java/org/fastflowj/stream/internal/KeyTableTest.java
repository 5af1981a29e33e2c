package org.fastflowj.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The window's key table against a HashMap, with keys that collide, removals, growth and reuse. */
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
            // Few distinct hashes: long probe runs, and removals that must move entries back across them.
            Object key = id == 0 ? null : new Colliding(id, random.nextInt(4) == 0 ? id : id % 37);
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
            Object key = new Colliding(random.nextInt(2_000), random.nextInt(29));
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
    void aHashFromAnotherTableFindsTheSameKey() {
        KeyTable frame = new KeyTable();
        KeyTable running = new KeyTable();
        for (long k = 0; k < 10_000; k++) {
            frame.setValueAt(frame.slotOf(k), k);
            if (k % 3 == 0) {
                running.setValueAt(running.slotOf(Long.valueOf(k)), -k);
            }
        }
        for (int slot = 0; slot < frame.slots(); slot++) {
            if (frame.used(slot)) {
                long key = (Long) frame.keyAt(slot);
                int found = running.find(frame.keyAt(slot), frame.hashAt(slot));
                assertEquals(key % 3 == 0, found >= 0, "key " + key);
                int added = running.slotOf(frame.keyAt(slot), frame.hashAt(slot));
                assertEquals(key, (long) (Long) running.keyAt(added));
                running.setValueAt(added, key);
            }
        }
        assertEquals(10_000, running.size());
        for (long k = 0; k < 10_000; k++) {
            assertEquals(k, running.get(k));
        }
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
