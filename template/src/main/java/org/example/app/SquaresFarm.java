package org.example.app;

import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/** A farm: a source of numbers, four workers squaring them in parallel, a sink adding the squares. */
final class SquaresFarm {
    private SquaresFarm() {}

    // tag::farm[]
    static final class Numbers extends Node<Void, Long> {
        private final long count;
        private long next = 1;

        Numbers(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) { // a source: called again and again until it returns eos()
            return next <= count ? Long.valueOf(next++) : eos();
        }
    }

    static final class Square extends Node<Long, Long> {
        @Override
        protected Long svc(Long x) {
            return x * x;
        }
    }

    static final class Sum extends Node<Long, Void> {
        long total; // written by this node's thread only, read after the run has ended

        @Override
        protected Void svc(Long x) {
            total += x;
            return goOn(); // nothing to send on
        }
    }

    static long sumOfSquares(long count) {
        Sum sum = new Sum();
        new Pipeline(new Numbers(count), Farm.of(4, Square::new), sum).runAndWaitEnd();
        return sum.total;
    }
    // end::farm[]
}
