package org.fastflowj.dist;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The allowed key a misspelt one was meant to be ({@code endpont}: {@code endpoint}), by edit distance.
 *
 * <p>Threading: stateless.
 */
final class KeySuggestion {
    /** How far a misspelt key may be from an allowed one to be suggested (edits: insert, delete, change). */
    private static final int MAX_SUGGESTION_DISTANCE = 2;

    private KeySuggestion() {}

    /** The allowed key closest to {@code key}, ignoring case, if within {@link #MAX_SUGGESTION_DISTANCE}. */
    static Optional<String> nearest(String key, List<String> allowed) {
        String lower = key.toLowerCase(Locale.ROOT);
        return allowed.stream()
                .filter(candidate -> distance(lower, candidate.toLowerCase(Locale.ROOT)) <= MAX_SUGGESTION_DISTANCE)
                .min(Comparator.comparingInt(candidate -> distance(lower, candidate.toLowerCase(Locale.ROOT))));
    }

    /** Levenshtein distance: the fewest one-character inserts, deletes and changes from a to b. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int change = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(change, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
