package org.fastflowj.patterns;

/**
 * Runs one slot's share of a call: its static block, or dynamic chunks claimed one by one until none is
 * left. A throwing body is caught here and recorded on the job with the index (or chunk) it failed at, so
 * a worker never dies and the pattern stays usable.
 *
 * <p>The loops count iterations down instead of comparing the index with {@code last}: near
 * {@link Long#MAX_VALUE} the index after the last one wraps around, and it is never used.
 */
final class ChunkRunner {
    private ChunkRunner() {}

    static void run(LoopJob job, WorkerSlot slot) {
        switch (job.kind) {
            case LONG -> slot.longPartial = job.longIdentity;
            case DOUBLE -> slot.doublePartial = job.doubleIdentity;
            case OBJECT -> {
                try {
                    slot.objectPartial = job.objectIdentity.get();
                } catch (Throwable t) {
                    job.fail(t, "the identity supplier on the " + slot);
                    return;
                }
            }
            default -> {}
        }
        if (!job.isDynamic()) {
            runIterations(job, slot, slot.fromIteration, slot.toIteration);
            return;
        }
        long grain = job.grain;
        for (long chunk = job.claims.claim(); chunk < job.chunks; chunk = job.claims.claim()) {
            long from = chunk * grain; // < count: no overflow
            long to = job.count - from <= grain ? job.count : from + grain;
            if (!runIterations(job, slot, from, to)) {
                return;
            }
        }
    }

    /** Runs iterations {@code [from, to)}; false if the body failed. */
    private static boolean runIterations(LoopJob job, WorkerSlot slot, long from, long to) {
        long step = job.step;
        long start = LoopRange.index(job.first, step, from);
        long n = to - from;
        long i = start;
        try {
            switch (job.kind) {
                case EACH -> {
                    IndexBody body = job.eachBody;
                    for (; n > 0; n--, i += step) {
                        body.apply(i);
                    }
                }
                case LONG -> {
                    LongReduceBody body = job.longBody;
                    long partial = slot.longPartial;
                    for (; n > 0; n--, i += step) {
                        partial = body.apply(partial, i);
                    }
                    slot.longPartial = partial;
                }
                case DOUBLE -> {
                    DoubleReduceBody body = job.doubleBody;
                    double partial = slot.doublePartial;
                    for (; n > 0; n--, i += step) {
                        partial = body.apply(partial, i);
                    }
                    slot.doublePartial = partial;
                }
                case OBJECT -> {
                    ReduceBody<Object> body = job.objectBody;
                    Object partial = slot.objectPartial;
                    for (; n > 0; n--, i += step) {
                        partial = body.apply(partial, i);
                    }
                    slot.objectPartial = partial;
                }
                case CHUNKS -> {
                    long end = to == job.count ? job.last : LoopRange.index(job.first, step, to);
                    job.chunkBody.apply(start, end, slot.worker);
                }
            }
            return true;
        } catch (Throwable t) {
            String place = job.kind == LoopJob.Kind.CHUNKS
                    ? "the chunk from index " + start + " (" + (to - from) + " iterations)"
                    : "index " + i;
            job.fail(t, place + " on the " + slot);
            return false;
        }
    }
}
