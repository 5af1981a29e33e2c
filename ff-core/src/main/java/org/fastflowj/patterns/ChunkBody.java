package org.fastflowj.patterns;

/**
 * A body that takes a whole chunk at once (FastFlow's {@code parallel_for_idx}): the indices a {@code for}
 * loop visits from {@code start} towards {@code end} (exclusive) with the call's step, on worker
 * {@code thread} ({@code 0..workers-1}, or {@code -1} when the call runs on the calling thread).
 */
@FunctionalInterface
public interface ChunkBody {
    void apply(long start, long end, int thread);
}
