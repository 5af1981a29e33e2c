package org.fastflowj.examples.swsearch;

import java.util.Comparator;

/** A scored database sequence. Best first: higher score, then earlier in the database. */
public record Hit(int index, String id, String description, int length, int score) {
    static final Comparator<Hit> BEST_FIRST =
            Comparator.comparingInt(Hit::score).reversed().thenComparingInt(Hit::index);
}
