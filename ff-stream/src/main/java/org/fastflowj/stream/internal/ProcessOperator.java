package org.fastflowj.stream.internal;

import java.util.function.Function;
import org.fastflowj.stream.KeyedProcessFunction;

/** Runs a {@link KeyedProcessFunction}: sets the key for the state, fires its timers at each watermark. */
public final class ProcessOperator extends Operator implements KeyedProcessFunction.Context<Object, Object> {
    private final Function<Object, Object> keyOf;
    private final KeyedProcessFunction<Object, Object, Object> function;
    private final KeyedStateStore states = new KeyedStateStore();
    private final EventTimers timers = new EventTimers();
    private long timestamp;

    @SuppressWarnings("unchecked")
    public ProcessOperator(Function<?, ?> keyOf, KeyedProcessFunction<?, ?, ?> function) {
        this.keyOf = (Function<Object, Object>) keyOf;
        this.function = (KeyedProcessFunction<Object, Object, Object>) function;
    }

    @Override
    public void open() throws Exception {
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
        out.emitWatermark(time);
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
}
