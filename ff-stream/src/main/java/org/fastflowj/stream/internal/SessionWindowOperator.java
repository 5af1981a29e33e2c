package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * Event-time session windows: a record opens {@code [ts, ts + gap)}, merged (as in Flink, windows that
 * overlap or touch merge) with the key's sessions it meets, their accumulators combined. A session fires
 * when the watermark reaches its {@code end - 1}; a record whose merged session has {@code end - 1 +
 * lateness <= watermark} is late.
 */
public final class SessionWindowOperator extends WindowOperator {
    private static final class Session {
        final long start;
        final long end;
        final Object accumulator;

        Session(long start, long end, Object accumulator) {
            this.start = start;
            this.end = end;
            this.accumulator = accumulator;
        }
    }

    private final long gap;
    private Map<Object, TreeMap<Long, Session>> sessions = new HashMap<>();

    public SessionWindowOperator(
            Function<?, ?> keyOf,
            Aggregate<?, ?, ?> aggregate,
            WindowEmitter emitter,
            long gap,
            long lateness,
            SideSink<?> lateSink) {
        super(keyOf, aggregate, emitter, lateness, lateSink);
        this.gap = gap;
    }

    @Override
    Object[] saveWindows() {
        return new Object[] {sessions};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadWindows(Object[] state) {
        sessions = (Map<Object, TreeMap<Long, Session>>) state[0];
    }

    @Override
    void onRecord(Object value, long ts) throws Exception {
        requireTimestamp(ts, value);
        Object key = keyOf.apply(value);
        TreeMap<Long, Session> keySessions = sessions.computeIfAbsent(key, k -> new TreeMap<>());
        long start = ts;
        long end = ts + gap;
        List<Session> met = new ArrayList<>();
        for (Session s : keySessions.headMap(end, true).descendingMap().values()) {
            if (s.end < ts) {
                break;
            }
            met.add(0, s);
            start = Math.min(start, s.start);
            end = Math.max(end, s.end);
        }
        if (plus(end - 1, lateness) <= watermark) {
            if (keySessions.isEmpty()) {
                sessions.remove(key);
            }
            late(value);
            return;
        }
        Object accumulator = met.isEmpty() ? aggregate.create() : met.get(0).accumulator;
        for (int i = 1; i < met.size(); i++) {
            accumulator = aggregate.combine(accumulator, met.get(i).accumulator);
        }
        for (Session s : met) {
            keySessions.remove(s.start);
        }
        Session merged = new Session(start, end, aggregate.add(accumulator, value));
        keySessions.put(start, merged);
        if (end - 1 <= watermark) {
            fire(key, start, end, merged.accumulator);
            timers.register(key, plus(end - 1, lateness));
        } else {
            timers.register(key, end - 1);
        }
    }

    @Override
    void onTimer(Object key, long time) throws Exception {
        TreeMap<Long, Session> keySessions = sessions.get(key);
        if (keySessions == null) {
            return;
        }
        for (Session s : new ArrayList<>(keySessions.values())) {
            if (s.end - 1 == time) {
                fire(key, s.start, s.end, s.accumulator);
                if (lateness > 0) {
                    timers.register(key, plus(s.end - 1, lateness));
                }
            }
            if (plus(s.end - 1, lateness) <= time) { // the timer's time: later sessions fire at their own timers
                keySessions.remove(s.start);
            }
        }
        if (keySessions.isEmpty()) {
            sessions.remove(key);
        }
    }
}
