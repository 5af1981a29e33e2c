package org.fastflowj.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeErrors;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;

/**
 * A run slow enough to watch: a source named {@code ticks} sends one item every 2 ms until told to stop,
 * a farm named {@code squares} of two workers squares them, a sink named {@code total} takes them and
 * skips (its error policy) the odd ones, on which it throws.
 *
 * <pre>
 *            +-> worker -+
 *   ticks ---+           +--> total
 *            +-> worker -+
 * </pre>
 */
final class LiveRun implements AutoCloseable {
    static final String SOURCE = "ticks";
    static final String FARM = "squares";
    static final String SINK = "total";

    /** Sends items at a pace a person (and a browser) can watch, until {@link #stop} is set. */
    static final class Ticks extends Node<Void, Long> {
        volatile boolean stop;
        private long next;

        @Override
        protected Long svc(Void none) throws InterruptedException {
            if (stop) {
                return eos();
            }
            Thread.sleep(2);
            return next++;
        }
    }

    private final Ticks ticks = new Ticks();
    private final Pipeline pipe = new Pipeline(
            ticks.named(SOURCE),
            Farm.of(2, () -> Node.<Long, Long>of(x -> x * x)).named(FARM),
            Node.<Long>sink(x -> {
                        if (x % 2 != 0) {
                            throw new IllegalArgumentException("odd: " + x);
                        }
                    })
                    .named(SINK)
                    .onError(NodeErrors.skip()));

    /** Starts the run with its page on a free port. */
    LiveRun start() {
        pipe.run(RunOptions.defaults().ui(0));
        return this;
    }

    String url(String path) {
        return "http://127.0.0.1:" + pipe.uiPort() + path;
    }

    @Override
    public void close() {
        ticks.stop = true;
        assertThat(pipe.waitEnd(20, TimeUnit.SECONDS)).as("the run ended").isTrue();
    }
}
