package org.fastflowj.stream.internal;

/**
 * One instance of a stream operator, run by the thread of the node it is fused into. It sees records
 * and watermarks in their channel order; {@link #processWatermark} is called only when the watermark
 * advanced, and with {@code Long.MAX_VALUE} once when the input ended.
 *
 * <p>Threading: every method runs on the node's one thread, so an operator keeps its state in fields.
 */
public abstract class Operator {
    protected Output out;
    protected OperatorInfo info;
    protected long watermark = Long.MIN_VALUE;

    final void bind(Output output, OperatorInfo operatorInfo) {
        this.out = output;
        this.info = operatorInfo;
    }

    /** Called once on the node's thread before the first record. */
    public void open() throws Exception {}

    public abstract void processRecord(Object value, long timestamp) throws Exception;

    /** The watermark advanced to {@code time}; the default forwards it. */
    public void processWatermark(long time) throws Exception {
        out.emitWatermark(time);
    }

    /**
     * The wall clock moved on (about every {@link Signal#TICK_MILLIS} ms while the sources run): fire what
     * is due in processing time. The default passes the tick on.
     */
    public void processTick() throws Exception {
        out.emitSignal(Signal.TICK);
    }

    /** The input has no records for now; the default passes that on. */
    public void processIdle() throws Exception {
        out.emitSignal(Signal.IDLE);
    }

    /**
     * The objects that hold this instance's state, for a checkpoint, or null if it keeps none (its
     * watermark is kept apart). Called on the node's thread between records; the objects are written
     * before the next record comes.
     */
    Object[] saveState() {
        return null;
    }

    /** Takes back, read anew, what {@link #saveState} gave; called before the first record. */
    void loadState(Object[] state) {}

    /**
     * Incremental checkpoints are on: from now on note what changes, so that {@link #saveChanges} writes
     * only that; what was noted so far is dropped (the current state is the base the changes apply to).
     * False, by default: this operator's state is small or changes whole (a window's panes), and each
     * checkpoint writes all of it.
     */
    boolean trackChanges() {
        return false;
    }

    /**
     * What changed since the last {@link #saveState} or {@code saveChanges}, as objects to write as {@link
     * #saveState}'s are; forgets it, to note changes afresh. Called only if {@link #trackChanges} said true.
     */
    Object[] saveChanges() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " writes no changes");
    }

    /** Applies, read anew, what {@link #saveChanges} gave, to the state {@link #loadState} took back. */
    void loadChanges(Object[] changes) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " reads no changes");
    }

    /** The state was just written or read whole: the changes noted so far are in it, forget them. */
    void clearChanges() {}

    final void advanceWatermark(long time) throws Exception {
        watermark = time;
        processWatermark(time);
    }
}
