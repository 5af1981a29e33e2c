package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.fastflowj.patterns.concurrent.OutstandingBound;

/** 128 bytes before the run's flags, which every worker reads per task: no line shared with written data. */
@SuppressWarnings("unused")
abstract class MdfRunPadBefore {
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class MdfRunFlags extends MdfRunPadBefore {
    volatile boolean generatorEnded;
    /** A task failed: the run is ending, and a worker starts no further successor of its own. */
    volatile boolean failed;

    @SuppressWarnings("unused") // through MdfRun's END_CLAIMED
    volatile boolean endClaimed;
}

@SuppressWarnings("unused")
abstract class MdfRunPadAfter extends MdfRunFlags {
    private long q00, q01, q02, q03, q04, q05, q06, q07;
    private long q10, q11, q12, q13, q14, q15, q16, q17;
}

/**
 * What the threads of one {@link MacroDataFlow} run share: the bound of outstanding tasks, and who ends
 * the run. The run is over when the generator has ended and no task is outstanding; whichever thread
 * sees both first (the generator at its end, or the one completing the last task) claims the end and
 * sends {@link #END} to the scheduler, exactly once.
 */
final class MdfRun extends MdfRunPadAfter {
    /** The message that tells the scheduler every task is done. */
    static final MdfTask END = new MdfTask(-1, "end of run", () -> {}, new MacroDataFlow.Param[0]);

    private static final VarHandle END_CLAIMED;

    static {
        try {
            END_CLAIMED = MethodHandles.lookup().findVarHandle(MdfRunFlags.class, "endClaimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final OutstandingBound bound;

    /** @param releasers the threads that complete tasks, each known by its index below this */
    MdfRun(int outstandingTasks, int releasers) {
        this.bound = new OutstandingBound(outstandingTasks, releasers);
    }

    /**
     * After a task is completed by releaser {@code releaser}: gives its credit back; returns whether the
     * caller claimed the end.
     *
     * <p>A Dekker pair with {@link #generatorEnds}: this side writes its release count then reads the
     * flag, the generator writes the flag then reads the counts, all volatile, so at least one of the two
     * sees the other's write and the end is never missed; the CAS keeps it from being claimed twice.
     */
    boolean taskDone(int releaser) {
        bound.release(releaser);
        return generatorEnded && bound.outstanding() == 0 && claimEnd();
    }

    /** The generator added its last task; returns whether the caller claimed the end. */
    boolean generatorEnds() {
        generatorEnded = true;
        return bound.outstanding() == 0 && claimEnd();
    }

    private boolean claimEnd() {
        return END_CLAIMED.compareAndSet(this, false, true);
    }
}
