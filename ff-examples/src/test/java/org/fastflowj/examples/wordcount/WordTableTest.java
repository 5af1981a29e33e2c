package org.fastflowj.examples.wordcount;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WordTableTest {

    private static void add(WordTable table, String word) {
        char[] text = ("  " + word + " ").toCharArray();
        int hash = WordTable.hash(text, 2, 2 + word.length());
        assertThat(hash).isEqualTo(word.hashCode());
        table.add(text, 2, 2 + word.length(), hash);
    }

    @Test
    void shouldCountLikeAHashMapThroughGrowthAndCollidingHashes() {
        WordTable table = new WordTable();
        Map<String, Long> expected = new HashMap<>();
        for (int i = 0; i < 50_000; i++) {
            String word = "w" + (i * 7919 % 12_345);
            add(table, word);
            expected.merge(word, 1L, Long::sum);
        }
        for (String colliding : new String[] {"Aa", "BB", "AaAa", "BBBB", "AaBB", "Aa", "BB"}) {
            add(table, colliding); // "Aa" and "BB" have the same String.hashCode
            expected.merge(colliding, 1L, Long::sum);
        }

        assertThat(table.size()).isEqualTo(expected.size());
        assertThat(table.drain()).isEqualTo(expected);
        assertThat(table.size()).isZero();
        assertThat(table.drain()).isEmpty();
    }

    @Test
    void shouldSplitAtAnyWhitespaceAndRouteEachWordToOneTableByItsHash() {
        WordTable[] tables = Splitter.WordSplitter.newTables(3);
        new Splitter.WordSplitter()
                .count(
                        "héllo hello\tHello\u2003hello \r\nzz".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        tables);

        Map<String, Long> all = new HashMap<>();
        for (int t = 0; t < tables.length; t++) {
            Map<String, Long> words = tables[t].drain();
            for (String word : words.keySet()) {
                assertThat(Splitter.owner(word, 3)).as(word).isEqualTo(t);
            }
            all.putAll(words);
        }
        assertThat(all).isEqualTo(Map.of("héllo", 1L, "hello", 2L, "Hello", 1L, "zz", 1L));
    }
}
