package org.fastflowj.stream.internal;

/**
 * A record of one of a join's two inputs on its way to the join: which input it came from (0 or 1) and
 * its value. The two inputs share the join's channels, so the side travels with the record.
 */
public final class Tagged {
    final int side;
    final Object value;

    Tagged(int side, Object value) {
        this.side = side;
        this.value = value;
    }

    @Override
    public String toString() {
        return (side == 0 ? "left " : "right ") + value;
    }
}
