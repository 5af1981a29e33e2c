package org.fastflowj.patterns;

/**
 * The arithmetic of a loop {@code for (i = first; step > 0 ? i < last : i > last; i += step)}, done so that
 * it never overflows: iterations are counted with unsigned division, and iteration {@code k} is at
 * {@code first + k * step}, computed with wrapping arithmetic, which is exact because the true value lies
 * between {@code first} and {@code last}. A loop may not run more than {@link Long#MAX_VALUE} times.
 */
final class LoopRange {
    private LoopRange() {}

    /**
     * How many indices the loop visits.
     *
     * @throws IllegalArgumentException for a step of 0 or more than {@link Long#MAX_VALUE} iterations
     */
    static long count(long first, long last, long step) {
        if (step == 0) {
            throw new IllegalArgumentException(
                    "step 0 from " + first + " to " + last + ": the loop would never end (use 1 or -1)");
        }
        if (step > 0 ? last <= first : last >= first) {
            return 0;
        }
        long distance = step > 0 ? last - first : first - last; // unsigned, at least 1
        long stride = step > 0 ? step : -step; // unsigned: Long.MIN_VALUE stands for 2^63
        long count = Long.divideUnsigned(distance - 1, stride) + 1;
        if (count <= 0) {
            throw new IllegalArgumentException("the loop from " + first + " to " + last + " with step " + step
                    + " has more than Long.MAX_VALUE iterations");
        }
        return count;
    }

    /** The index of iteration {@code k} (0-based). */
    static long index(long first, long step, long k) {
        return first + k * step;
    }

    /** The first iteration of static block {@code block} of {@code blocks}: the first {@code count % blocks} are one longer. */
    static long blockStart(long count, int blocks, int block) {
        long base = count / blocks;
        long longer = count % blocks;
        return block * base + Math.min(block, longer);
    }
}
