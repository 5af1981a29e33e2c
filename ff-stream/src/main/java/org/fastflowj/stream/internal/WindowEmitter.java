package org.fastflowj.stream.internal;

import java.util.List;
import java.util.function.Consumer;
import org.fastflowj.stream.WindowFunction;
import org.fastflowj.stream.WindowResult;

/** What a window operator sends when a window fires: a {@link WindowResult}, or a window function's output. */
@FunctionalInterface
public interface WindowEmitter {
    void emit(Object key, long start, long end, Object result, long timestamp, Output out) throws Exception;

    static WindowEmitter results() {
        return (key, start, end, result, timestamp, out) ->
                out.emit(new WindowResult<>(start, end, key, result), timestamp);
    }

    /** {@code emitter} with no key: the windows of all records, whose one key is the operator's own. */
    static WindowEmitter withoutKey(WindowEmitter emitter) {
        return (key, start, end, result, timestamp, out) -> emitter.emit(null, start, end, result, timestamp, out);
    }

    @SuppressWarnings("unchecked")
    static WindowEmitter applying(WindowFunction<?, ?, ?> function) {
        WindowFunction<Object, Object, Object> f = (WindowFunction<Object, Object, Object>) function;
        return (key, start, end, result, timestamp, out) -> {
            Consumer<Object> emit = r -> out.emit(r, timestamp);
            f.apply(key, start, end, (List<Object>) result, emit);
        };
    }
}
