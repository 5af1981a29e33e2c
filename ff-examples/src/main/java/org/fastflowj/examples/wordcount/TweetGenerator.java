package org.fastflowj.examples.wordcount;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Deterministic tweet-like lines: words drawn from a Zipf distribution (exponent 1) over a vocabulary of
 * made-up words, some of them hashtags or mentions, some with punctuation or a capital; each line at most
 * 280 characters. The same seed gives the same lines on every JVM ({@link SplittableRandom} is specified).
 */
public final class TweetGenerator {
    /** The longest line, as a tweet. */
    public static final int MAX_LINE_CHARS = 280;

    private static final int VOCABULARY = 20_000;
    private static final String LETTERS = "etaoinshrdlucmfwypvbgkjqxz";
    private static final String[] PUNCTUATION = {",", ".", "!", "?", ":", "..."};

    private final SplittableRandom random;
    private final String[] words = new String[VOCABULARY];
    private final double[] cumulative = new double[VOCABULARY];

    public TweetGenerator(long seed) {
        random = new SplittableRandom(seed);
        double sum = 0;
        for (int i = 0; i < VOCABULARY; i++) {
            words[i] = inventWord(i);
            sum += 1.0 / (i + 1);
            cumulative[i] = sum;
        }
        for (int i = 0; i < VOCABULARY; i++) {
            cumulative[i] /= sum;
        }
    }

    private String inventWord(int rank) {
        int length = 1 + Math.min(rank / 400, 3) + random.nextInt(1, 8); // frequent words are short
        StringBuilder word = new StringBuilder(length + 1);
        int kind = random.nextInt(100);
        if (rank > 50 && kind < 5) {
            word.append('#');
        } else if (rank > 50 && kind < 9) {
            word.append('@');
        }
        for (int k = 0; k < length; k++) {
            // skewed towards frequent letters: the square of a uniform number favours small indices
            double u = random.nextDouble();
            word.append(LETTERS.charAt((int) (u * u * LETTERS.length())));
        }
        return word.toString();
    }

    /** The next line, without its {@code \n}. */
    public String nextLine() {
        int target = 20 + random.nextInt(MAX_LINE_CHARS - 20 + 1);
        StringBuilder line = new StringBuilder(target);
        do {
            String word = nextWord(line.length() == 0);
            int needed = line.length() == 0 ? word.length() : line.length() + 1 + word.length();
            if (needed > target && line.length() > 0) {
                break;
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        } while (line.length() < target);
        return line.toString();
    }

    private String nextWord(boolean first) {
        int index = Arrays.binarySearch(cumulative, random.nextDouble());
        String word = words[index < 0 ? Math.min(-index - 1, VOCABULARY - 1) : index];
        int style = random.nextInt(100);
        if ((first && style < 50) || style < 3) {
            word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
        }
        if (random.nextInt(100) < 8) {
            word = word + PUNCTUATION[random.nextInt(PUNCTUATION.length)];
        }
        return word;
    }
}
