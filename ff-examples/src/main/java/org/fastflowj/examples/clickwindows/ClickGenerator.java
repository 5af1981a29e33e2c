package org.fastflowj.examples.clickwindows;

/**
 * Deterministic clicks: click {@code seq} happens at {@code seq * stepMillis} plus a delay below 2 s,
 * so in sequence order the times go back by less than 2 s (the job's bounded disorder), by a user
 * among {@code users}.
 */
public record ClickGenerator(int users, long stepMillis) {
    static final long MAX_DELAY_MILLIS = 1_990;

    public long ts(long seq) {
        return seq * stepMillis + Math.floorMod(mix(seq), MAX_DELAY_MILLIS);
    }

    public String user(long seq) {
        return "u" + Math.floorMod(mix(seq * 31 + 7), users);
    }

    public String line(long seq) {
        return ts(seq) + "," + user(seq) + ",/page/" + Math.floorMod(seq, 50);
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }
}
