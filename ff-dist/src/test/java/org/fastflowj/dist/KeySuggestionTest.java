package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeySuggestionTest {
    private static final List<String> KEYS = List.of("name", "endpoint", "host", "batchSize", "messageOTF");

    @Test
    void shouldSuggestTheClosestKeyWithinTwoEdits() {
        assertThat(KeySuggestion.nearest("endpont", KEYS)).contains("endpoint");
        assertThat(KeySuggestion.nearest("BATCHSIZE", KEYS)).contains("batchSize");
        assertThat(KeySuggestion.nearest("hots", KEYS)).contains("host");
    }

    @Test
    void shouldSuggestNothingForAKeyFarFromEvery() {
        assertThat(KeySuggestion.nearest("colour", KEYS)).isEmpty();
    }

    @Test
    void shouldCountInsertsDeletesAndChanges() {
        assertThat(KeySuggestion.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(KeySuggestion.distance("", "abc")).isEqualTo(3);
        assertThat(KeySuggestion.distance("same", "same")).isZero();
    }
}
