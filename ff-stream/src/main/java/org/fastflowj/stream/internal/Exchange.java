package org.fastflowj.stream.internal;

import java.util.function.Function;

/** How the records of a stream reach the instances of the operator that consumes it. */
public record Exchange(Kind kind, Function<Object, Object> key) {
    public enum Kind {
        FORWARD,
        KEYED,
        REBALANCE,
        BROADCAST
    }

    public static final Exchange FORWARD = new Exchange(Kind.FORWARD, null);
    public static final Exchange REBALANCE = new Exchange(Kind.REBALANCE, null);
    public static final Exchange BROADCAST = new Exchange(Kind.BROADCAST, null);

    @SuppressWarnings("unchecked")
    public static Exchange keyed(Function<?, ?> key) {
        return new Exchange(Kind.KEYED, (Function<Object, Object>) key);
    }
}
