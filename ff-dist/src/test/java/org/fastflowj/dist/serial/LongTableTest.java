package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LongTable} answers as a {@code HashMap} does, through growth and removals in every order. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LongTableTest {
    @Test
    void shouldAnswerAsAHashMapUnderRandomPutsAndRemovals() {
        SplittableRandom random = new SplittableRandom(42);
        LongTable<Long> table = new LongTable<>();
        Map<Long, Long> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            long key = random.nextInt(3000) - 100; // clustered keys, negative ones too
            switch (random.nextInt(3)) {
                case 0 -> assertThat(table.put(key, step + 0L)).isEqualTo(expected.put(key, step + 0L));
                case 1 -> assertThat(table.remove(key)).isEqualTo(expected.remove(key));
                default -> assertThat(table.get(key)).isEqualTo(expected.get(key));
            }
            assertThat(table.size()).isEqualTo(expected.size());
        }
        for (long key = -100; key < 2900; key++) {
            assertThat(table.get(key)).isEqualTo(expected.get(key));
        }
    }

    @Test
    void shouldFindEveryKeyOfARunAfterRemovingItsFirst() {
        LongTable<String> table = new LongTable<>();
        for (long key = 0; key < 20; key++) {
            table.put(key * 64, "v" + key); // many keys, few slots apart
        }
        table.remove(0);

        for (long key = 1; key < 20; key++) {
            assertThat(table.get(key * 64)).isEqualTo("v" + key);
        }
        assertThat(table.get(0)).isNull();
    }
}
