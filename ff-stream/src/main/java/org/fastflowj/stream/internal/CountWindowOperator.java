package org.fastflowj.stream.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * Tumbling count windows: every {@code n} records of a key fire, as the window {@code [first, first + n)}
 * of the key's record ordinals. At the end of the stream a key's unfinished window fires with what it holds.
 */
public final class CountWindowOperator extends WindowOperator {
    private static final class Window {
        long first;
        long count;
        long lastTimestamp;
        Object accumulator;
    }

    private final long n;
    private Map<Object, Window> windows = new LinkedHashMap<>();

    public CountWindowOperator(Function<?, ?> keyOf, Aggregate<?, ?, ?> aggregate, WindowEmitter emitter, long n) {
        super(keyOf, aggregate, emitter, 0, null);
        this.n = n;
    }

    @Override
    Object[] saveWindows() {
        return new Object[] {windows};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadWindows(Object[] state) {
        windows = (Map<Object, Window>) state[0];
    }

    @Override
    void onRecord(Object value, long ts) throws Exception {
        Object key = keyOf.apply(value);
        Window w = windows.computeIfAbsent(key, k -> new Window());
        w.accumulator = add(w.accumulator, value);
        w.lastTimestamp = ts;
        if (++w.count == n) {
            emitter.emit(key, w.first, w.first + n, aggregate.result(w.accumulator), ts, out);
            w.first += n;
            w.count = 0;
            w.accumulator = null;
        }
    }

    @Override
    public void processWatermark(long time) throws Exception {
        if (time == Long.MAX_VALUE) {
            for (Map.Entry<Object, Window> e : windows.entrySet()) {
                Window w = e.getValue();
                if (w.count > 0) {
                    emitter.emit(
                            e.getKey(),
                            w.first,
                            w.first + w.count,
                            aggregate.result(w.accumulator),
                            w.lastTimestamp,
                            out);
                }
            }
            windows.clear();
        }
        out.emitWatermark(time);
    }

    @Override
    void onTimer(Object key, long time) {}
}
