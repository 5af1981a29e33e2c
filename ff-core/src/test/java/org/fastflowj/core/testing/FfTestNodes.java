package org.fastflowj.core.testing;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;

/** Small nodes shared by the FastFlow-behaviour tests. */
public final class FfTestNodes {

    private FfTestNodes() {}

    /** A source sending {@code from..to} (inclusive) in one call, then EOS. */
    public static final class Range extends Node<Void, Long> {
        private final long from;
        private final long to;

        public Range(long from, long to) {
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = from; i <= to; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Passes every item on unchanged. */
    public static final class Identity extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Records every item it gets, emits nothing. */
    public static final class Record extends Node<Long, Void> {
        public final List<Long> items = new ArrayList<>();
        public boolean ended;

        @Override
        protected Void svc(Long in) {
            items.add(in);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    public static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }
}
