package org.fastflowj.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One task of a {@link TaskFarm} on its way to a worker. The caller fills it before the input channel's
 * release hand-off; the worker empties it and then marks it finished with a release store, which the
 * caller reads with an acquire load before it refills the carrier for a later task, so the plain fields
 * need no other ordering and a round allocates no carrier once the farm's carrier ring is warm.
 */
final class FarmTask {
    private static final VarHandle FINISHED;

    static {
        try {
            FINISHED = MethodHandles.lookup().findVarHandle(FarmTask.class, "finished", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Runnable body;
    String name;
    /** The task's place among the tasks added since the previous waitAll, from 0. */
    long index;

    @SuppressWarnings("unused") // through FINISHED
    private boolean finished;

    FarmTask fill(Runnable body, String name, long index) {
        this.body = body;
        this.name = name;
        this.index = index;
        FINISHED.set(this, false); // plain: published with the other fields by the channel's hand-off
        return this;
    }

    /** On the worker, once the task has run: the carrier may be refilled. */
    void finish() {
        body = null; // what the task captured is not kept alive by the carrier
        name = null;
        FINISHED.setRelease(this, true);
    }

    boolean isFinished() {
        return (boolean) FINISHED.getAcquire(this);
    }
}
