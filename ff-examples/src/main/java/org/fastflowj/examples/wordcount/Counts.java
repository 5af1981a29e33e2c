package org.fastflowj.examples.wordcount;

import java.util.HashMap;
import java.util.Map;

/** What a counter sends the sink when its input has ended: its words' counts and the lines it was told of. */
public record Counts(HashMap<String, Long> words, long lines) {
    /** Adds these counts into {@code total}. */
    void addTo(Map<String, Long> total) {
        words.forEach((word, n) -> total.merge(word, n, Long::sum));
    }
}
