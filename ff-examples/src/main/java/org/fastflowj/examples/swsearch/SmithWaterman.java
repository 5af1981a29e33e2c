package org.fastflowj.examples.swsearch;

/**
 * Smith-Waterman local alignment score with affine gaps (Gotoh), BLOSUM50 substitutions, in linear
 * space: a gap of length k costs {@code open + k * extend} (the "10-2k" of the 2009 report: open 10,
 * extend 2).
 */
final class SmithWaterman {
    private final int open;
    private final int extend;

    SmithWaterman(int open, int extend) {
        this.open = open;
        this.extend = extend;
    }

    /** The best local alignment score of {@code query} against {@code subject}. */
    int score(byte[] query, byte[] subject) {
        int m = subject.length;
        int[] h = new int[m + 1]; // H of the previous row, then of this row
        int[] f = new int[m + 1]; // gaps in the query (vertical), per column
        int best = 0;
        int firstGap = open + extend;
        for (byte q : query) {
            int diagonal = 0; // H[i-1][j-1]
            int e = 0; // gaps in the subject (horizontal), along this row
            int left = 0; // H[i][j-1]
            for (int j = 1; j <= m; j++) {
                e = Math.max(e - extend, left - firstGap);
                f[j] = Math.max(f[j] - extend, h[j] - firstGap);
                int cell = Math.max(0, diagonal + Blosum50.score(q, subject[j - 1]));
                cell = Math.max(cell, Math.max(e, f[j]));
                diagonal = h[j];
                h[j] = cell;
                left = cell;
                best = Math.max(best, cell);
            }
        }
        return best;
    }
}
