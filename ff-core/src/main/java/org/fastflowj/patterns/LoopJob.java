package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BinaryOperator;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.Supplier;

/**
 * One call of a {@link ParallelFor}: the loop, its body, and how the call ends. A pattern reuses one
 * instance for every call it hands to its workers (no allocation per call); a call run on the calling
 * thread gets its own.
 *
 * <p>Threading: the caller writes the loop fields, then offloads the job; the SPSC channels from the
 * caller to the scheduler and from the scheduler to each worker publish them (release/acquire). The
 * workers' results come back the same way to the scheduler, which then sets {@link #done} (a volatile
 * write) and wakes the caller, whose volatile read of {@code done} makes all of them visible to it.
 */
final class LoopJob implements BooleanSupplier {
    enum Kind {
        EACH,
        CHUNKS,
        LONG,
        DOUBLE,
        OBJECT
    }

    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(LoopJob.class, "failure", Throwable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final WorkerSlot[] slots;
    final ClaimCounter claims = new ClaimCounter();

    Kind kind;
    long first;
    long last;
    long step;
    long count;
    /** Iterations per dynamic chunk; 0 for static blocks. */
    long grain;
    /** Number of dynamic chunks. */
    long chunks;
    /** How many slots (the first ones) took part; set by the scheduler or the inline path. */
    int participants;

    IndexBody eachBody;
    ChunkBody chunkBody;
    LongReduceBody longBody;
    long longIdentity;
    DoubleReduceBody doubleBody;
    double doubleIdentity;
    ReduceBody<Object> objectBody;
    Supplier<?> objectIdentity;

    volatile boolean done;
    /** Wakes the caller waiting for {@link #done}: set once for the job the workers run, else null. */
    Runnable wakeCaller;

    private volatile Throwable failure;
    private volatile String failurePlace;

    LoopJob(WorkerSlot[] slots) {
        this.slots = slots;
    }

    /** Sets the loop; {@code count} comes from {@link LoopRange#count}. */
    void loop(long first, long last, long step, long grain, long count) {
        this.first = first;
        this.last = last;
        this.step = step;
        this.count = count;
        this.grain = grain > 0 ? grain : 0;
        this.chunks = grain > 0 ? (count - 1) / grain + 1 : 0;
        this.participants = 0;
        this.done = false;
        this.failure = null;
        this.failurePlace = null;
    }

    boolean isDynamic() {
        return grain > 0;
    }

    /** Records the first failure (later ones are dropped) and stops handing out chunks. */
    void fail(Throwable cause, String place) {
        if (FAILURE.compareAndSet(this, null, cause)) {
            failurePlace = place;
        }
        claims.exhaust(chunks);
    }

    boolean failed() {
        return failure != null;
    }

    /** Called by the scheduler once every slot is back. */
    void finish() {
        done = true; // volatile write: publishes the slots' partials to the caller's read of done
        Runnable wake = wakeCaller;
        if (wake != null) {
            wake.run();
        }
    }

    /** Whether the call ended: what the caller waits for. */
    @Override
    public boolean getAsBoolean() {
        return done;
    }

    /** Throws the body's failure, if any, wrapped so that the message says where it happened. */
    void rethrowFailure() {
        Throwable cause = failure;
        if (cause != null) {
            throw new ParallelForException(
                    "ParallelFor body failed at " + failurePlace + " of the loop from " + first + " to " + last
                            + " step " + step + ": " + cause,
                    cause);
        }
    }

    long combineLong(LongBinaryOperator combiner) {
        long result = slots[0].longPartial;
        for (int w = 1; w < participants; w++) {
            result = combiner.applyAsLong(result, slots[w].longPartial);
        }
        return result;
    }

    double combineDouble(DoubleBinaryOperator combiner) {
        double result = slots[0].doublePartial;
        for (int w = 1; w < participants; w++) {
            result = combiner.applyAsDouble(result, slots[w].doublePartial);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    <R> R combineObjects(BinaryOperator<R> combiner) {
        R result = (R) slots[0].objectPartial;
        for (int w = 1; w < participants; w++) {
            result = combiner.apply(result, (R) slots[w].objectPartial);
        }
        return result;
    }

    /** Drops the references to the caller's lambdas and results, so a finished call keeps nothing alive. */
    void clear() {
        eachBody = null;
        chunkBody = null;
        longBody = null;
        doubleBody = null;
        objectBody = null;
        objectIdentity = null;
        for (WorkerSlot slot : slots) {
            slot.objectPartial = null;
        }
    }
}
