package org.fastflowj.core.runtime.control;

/** Thrown inside a node thread to unwind it when the run was cancelled; never reaches users. */
public final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Cancelled INSTANCE = new Cancelled();

    private Cancelled() {
        super("run cancelled", null, false, false);
    }
}
