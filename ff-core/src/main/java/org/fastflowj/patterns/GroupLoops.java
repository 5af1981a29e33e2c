package org.fastflowj.patterns;

import static org.fastflowj.patterns.MacroDataFlow.out;

import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.Supplier;

/**
 * The calls of a {@link ParallelFor} whose workers span distributed groups: each call is one {@link
 * MacroDataFlow} run whose tasks are the loop's chunks ({@link LoopChunk}), independent of one another, so
 * they go to free workers, those of the scheduler's group first. Static partitioning ({@code grain <= 0})
 * cuts one chunk per worker of every group, dynamic ({@code grain > 0}) chunks of {@code grain} iterations.
 * Reductions combine the chunks' partials in chunk order, on the calling thread.
 *
 * <p>A loop body is a named class that crosses groups with its fields; for {@code parallelFor} it writes
 * only element {@code i} of its arrays for index {@code i} (FastFlow's parallel_for contract), and those
 * elements come back ({@link LoopChunk#scatter}). In a worker group's process a call returns once that
 * group's part ended; its results are the scheduler's group's.
 *
 * <p>Threading: one call at a time (the caller's thread generates the chunks and combines the partials).
 */
final class GroupLoops {
    private final MacroDataFlow mdf;
    private final int workers;
    private final String groupNames;

    GroupLoops(int homeWorkers, MdfGroups groups, MacroDataFlow mdf) {
        this.mdf = mdf;
        this.workers = homeWorkers + groups.remoteWorkers();
        this.groupNames = groups.workerGroupNames().toString();
    }

    private LoopChunk template(LoopChunk.Kind kind, Object body, long first, long step) {
        checkCrosses(body, "body");
        LoopChunk chunk = new LoopChunk();
        chunk.kind = kind;
        chunk.body = body;
        chunk.first = first;
        chunk.step = step;
        return chunk;
    }

    private void checkCrosses(Object part, String what) {
        Class<?> type = part.getClass();
        if (type.isSynthetic() || type.isHidden() || type.isAnonymousClass() || type.isLocalClass()) {
            throw new IllegalArgumentException("ParallelFor: the " + what + " is " + type.getName() + ", a lambda or"
                    + " local class, but workers run in groups " + groupNames + ": it crosses groups by its class"
                    + " name and fields, so it must be a named class or record");
        }
    }

    /** Runs every chunk of the loop, each made from {@code template}; returns the chunks' result slots. */
    private Object[][] run(LoopChunk template, long count, long grain) {
        long chunkLength = grain > 0 ? grain : Math.max(1, (count + workers - 1) / workers);
        int chunks = (int) Math.min(Integer.MAX_VALUE - 8, (count + chunkLength - 1) / chunkLength);
        Object[][] slots = new Object[chunks][];
        LoopChunk[] parts = new LoopChunk[chunks];
        for (int c = 0; c < chunks; c++) {
            LoopChunk part = new LoopChunk();
            part.kind = template.kind;
            part.body = template.body;
            part.longIdentity = template.longIdentity;
            part.doubleIdentity = template.doubleIdentity;
            part.objectIdentity = template.objectIdentity;
            part.first = template.first;
            part.step = template.step;
            part.from = c * chunkLength;
            part.to = Math.min(count, part.from + chunkLength);
            part.original = true;
            parts[c] = part;
            slots[c] = new Object[1];
        }
        try {
            mdf.run(g -> {
                for (int c = 0; c < chunks; c++) {
                    g.add(parts[c], out(slots[c]));
                }
            });
        } catch (MacroDataFlowException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new ParallelForException(
                    "ParallelFor body failed in chunk #" + e.taskIndex() + " of the loop from " + template.first
                            + " step " + template.step + ": " + cause,
                    cause);
        }
        if (template.kind == LoopChunk.Kind.EACH) {
            for (int c = 0; c < chunks; c++) {
                if (slots[c][0] instanceof Object[] slices) { // the chunk ran in another group
                    LoopChunk.scatter(template.body, slices, template.first, template.step, parts[c].from, parts[c].to);
                }
            }
        }
        return slots;
    }

    void parallelFor(long first, long step, long grain, long count, IndexBody body) {
        run(template(LoopChunk.Kind.EACH, body, first, step), count, grain);
    }

    long reduceLong(
            long first, long step, long grain, long count, long identity, LongReduceBody body, LongBinaryOperator op) {
        LoopChunk t = template(LoopChunk.Kind.LONG, body, first, step);
        t.longIdentity = identity;
        Object[][] slots = run(t, count, grain);
        boolean any = false;
        long result = identity;
        for (Object[] slot : slots) {
            if (slot[0] != null) {
                result = any ? op.applyAsLong(result, (Long) slot[0]) : (Long) slot[0];
                any = true;
            }
        }
        return result;
    }

    double reduceDouble(
            long first,
            long step,
            long grain,
            long count,
            double identity,
            DoubleReduceBody body,
            DoubleBinaryOperator op) {
        LoopChunk t = template(LoopChunk.Kind.DOUBLE, body, first, step);
        t.doubleIdentity = identity;
        Object[][] slots = run(t, count, grain);
        boolean any = false;
        double result = identity;
        for (Object[] slot : slots) {
            if (slot[0] != null) {
                result = any ? op.applyAsDouble(result, (Double) slot[0]) : (Double) slot[0];
                any = true;
            }
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    <R> R reduce(
            long first,
            long step,
            long grain,
            long count,
            Supplier<? extends R> identity,
            ReduceBody<R> body,
            BinaryOperator<R> op) {
        checkCrosses(identity, "identity");
        LoopChunk t = template(LoopChunk.Kind.OBJECT, body, first, step);
        t.objectIdentity = identity;
        Object[][] slots = run(t, count, grain);
        boolean any = false;
        R result = null;
        for (Object[] slot : slots) {
            if (slot[0] != null) {
                result = any ? op.apply(result, (R) slot[0]) : (R) slot[0];
                any = true;
            }
        }
        return any ? result : identity.get();
    }
}
