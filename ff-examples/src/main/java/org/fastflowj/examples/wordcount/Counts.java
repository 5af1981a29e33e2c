package org.fastflowj.examples.wordcount;

import java.util.HashMap;
import java.util.Map;

/** Counts of some words, and of the lines they came from: what a splitter sends a counter, and a counter the sink. */
public record Counts(HashMap<String, Long> words, long lines) {
    static Counts empty(long lines) {
        return new Counts(new HashMap<>(), lines);
    }

    /** Adds these counts into {@code total}. */
    void addTo(Map<String, Long> total) {
        if (total.isEmpty() && total instanceof HashMap<String, Long> empty) {
            empty.putAll(words); // the first table: no lookups needed
            return;
        }
        words.forEach((word, n) -> total.merge(word, n, Long::sum));
    }
}
