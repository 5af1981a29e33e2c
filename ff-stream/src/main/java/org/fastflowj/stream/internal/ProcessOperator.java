package org.fastflowj.stream.internal;

import java.util.Map;
import java.util.function.Function;
import org.fastflowj.stream.KeyedProcessFunction;

/**
 * Runs a {@link KeyedProcessFunction}: sets the key for the state, fires its event-time timers at each
 * watermark and its processing-time timers at each tick (and all that are left at the end).
 */
public final class ProcessOperator extends Operator implements KeyedProcessFunction.Context<Object, Object> {
    private final Function<Object, Object> keyOf;
    private final KeyedProcessFunction<Object, Object, Object> function;
    private final KeyedStateStore states = new KeyedStateStore();
    private EventTimers timers = new EventTimers();
    private EventTimers processingTimers = new EventTimers();
    private long timestamp;
    /** Incremental checkpoints are on. */
    private boolean tracking;

    @SuppressWarnings("unchecked")
    public ProcessOperator(Function<?, ?> keyOf, KeyedProcessFunction<?, ?, ?> function) {
        this.keyOf = (Function<Object, Object>) keyOf;
        this.function = (KeyedProcessFunction<Object, Object, Object>) function;
    }

    @Override
    Object[] saveState() {
        return new Object[] {states.saveState(), timers, processingTimers};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadState(Object[] state) {
        states.loadState((Map<String, Map<Object, ?>>) state[0]);
        timers = (EventTimers) state[1];
        processingTimers = (EventTimers) state[2];
        if (tracking) {
            timers.trackChanges();
            processingTimers.trackChanges();
        }
    }

    /** Keyed state and timers both note what changes: each may hold one entry per key. */
    @Override
    boolean trackChanges() {
        tracking = true;
        states.trackChanges();
        timers.trackChanges();
        processingTimers.trackChanges();
        return true;
    }

    /** The changed keys of each state with their values, then the changed timers of each domain. */
    @Override
    Object[] saveChanges() {
        return new Object[] {states.saveChanges(), timers.saveChanges(), processingTimers.saveChanges()};
    }

    @Override
    void loadChanges(Object[] changes) {
        states.loadChanges((Object[]) changes[0]);
        timers.loadChanges((Object[]) changes[1]);
        processingTimers.loadChanges((Object[]) changes[2]);
    }

    @Override
    void clearChanges() {
        states.clearChanges();
        timers.clearChanges();
        processingTimers.clearChanges();
    }

    /** How many keys and timers are noted as changed since the last checkpoint. */
    int changesNoted() {
        return states.changedKeys() + timers.changedTimers() + processingTimers.changedTimers();
    }

    @Override
    public void open() throws Exception {
        states.reopen();
        function.open(states);
    }

    @Override
    public void processRecord(Object value, long ts) throws Exception {
        states.currentKey = keyOf.apply(value);
        timestamp = ts;
        function.processElement(value, this);
    }

    @Override
    public void processWatermark(long time) throws Exception {
        for (EventTimers.Timer timer = timers.pollDue(time); timer != null; timer = timers.pollDue(time)) {
            states.currentKey = timer.key();
            timestamp = timer.time();
            function.onTimer(timer.time(), this);
        }
        if (time == Long.MAX_VALUE) {
            fireProcessingTimers(Long.MAX_VALUE);
        }
        out.emitWatermark(time);
    }

    @Override
    public void processTick() throws Exception {
        fireProcessingTimers(System.currentTimeMillis());
        super.processTick();
    }

    private void fireProcessingTimers(long now) throws Exception {
        for (EventTimers.Timer timer = processingTimers.pollDue(now);
                timer != null;
                timer = processingTimers.pollDue(now)) {
            states.currentKey = timer.key();
            timestamp = watermark;
            function.onProcessingTimer(timer.time(), this);
        }
    }

    @Override
    public Object key() {
        return states.currentKey;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public void emit(Object result) {
        out.emit(result, timestamp);
    }

    @Override
    public void registerEventTimeTimer(long time) {
        timers.register(states.currentKey, time);
    }

    @Override
    public void deleteEventTimeTimer(long time) {
        timers.delete(states.currentKey, time);
    }

    @Override
    public long currentProcessingTime() {
        return System.currentTimeMillis();
    }

    @Override
    public void registerProcessingTimeTimer(long time) {
        processingTimers.register(states.currentKey, time);
    }

    @Override
    public void deleteProcessingTimeTimer(long time) {
        processingTimers.delete(states.currentKey, time);
    }
}
