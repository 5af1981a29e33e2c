package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_noinput_pipe.cpp: a three-stage pipeline with queues of 10, a source
 * that returns one item per call and then ends, and a middle stage that pauses after every item it
 * forwards; the last stage gets every item.
 *
 * <p>Partly mirrored: the middle stage's throttling (input_active(false) after each item, then ten calls of
 * svc(NULL), sleeping, before it reads again) is outside our API; here it pauses in svc after each item.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ThrottledMiddleStageTest {
    private static final long STREAMLEN = 200;

    /** One item per call, 1..streamlen, then the end of the stream. */
    static final class Stage1 extends Node<Void, Long> {
        private long i;
        int calls;

        @Override
        protected Long svc(Void none) {
            calls++;
            return ++i > STREAMLEN ? eos() : Long.valueOf(i);
        }
    }

    static final class Stage2 extends Node<Long, Long> {
        int forwarded;

        @Override
        protected Long svc(Long task) {
            for (int cnt = 1; cnt < 10; cnt++) { // the C++ "waiting cnt=" rounds, shortened
                LockSupport.parkNanos(2_000);
            }
            forwarded++;
            return task;
        }
    }

    static final class Stage3 extends Node<Long, Void> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            got.add(task);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryItemThroughTheThrottledStage(WaitStrategy strategy) {
        Stage1 first = new Stage1();
        Stage2 middle = new Stage2();
        Stage3 last = new Stage3();
        new Pipeline(first, middle, last)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(10));

        assertThat(first.calls).isEqualTo(STREAMLEN + 1);
        assertThat(middle.forwarded).isEqualTo(STREAMLEN);
        assertThat(last.got)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, STREAMLEN).boxed().toList());
    }
}
