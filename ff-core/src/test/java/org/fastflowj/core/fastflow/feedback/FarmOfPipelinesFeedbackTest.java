package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_farm+pipe.cpp and tests/test_farm+pipe2.cpp: a wrapped farm of two-stage pipelines circulates one token until it reaches zero; in the second, the pipelines also feed a multi-input gatherer. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FarmOfPipelinesFeedbackTest {

    /** Each stage decrements the token (test_farm+pipe). */
    static final class Decrement extends Node<long[], long[]> {
        private final AtomicInteger calls;

        Decrement(AtomicInteger calls) {
            this.calls = calls;
        }

        @Override
        protected long[] svc(long[] token) {
            calls.incrementAndGet();
            token[0]--;
            return token;
        }
    }

    /** Loop head: starts one token at 1000, ends once it comes back at zero or below. */
    static final class TokenEmitter extends Node<long[], long[]> {
        final List<Long> cameBack = new ArrayList<>();

        @Override
        protected long[] svc(long[] token) {
            if (token == null) {
                return new long[] {1000};
            }
            cameBack.add(token[0]);
            return token[0] <= 0 ? eos() : token;
        }
    }

    @Test
    void shouldCirculateTheTokenThroughTheWorkerPipelinesUntilZero() {
        AtomicInteger stage1 = new AtomicInteger();
        AtomicInteger stage2 = new AtomicInteger();
        TokenEmitter emitter = new TokenEmitter();
        Farm.of(3, () -> new Pipeline(new Decrement(stage1), new Decrement(stage2)))
                .emitter(emitter)
                .wrapAround()
                .runAndWaitEnd();

        List<Long> expected = new ArrayList<>();
        for (long v = 998; v >= 0; v -= 2) {
            expected.add(v);
        }
        assertThat(emitter.cameBack).containsExactlyElementsOf(expected);
        assertThat(stage1.get()).isEqualTo(500);
        assertThat(stage2.get()).isEqualTo(500);
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long t) {
            return t;
        }
    }

    /** Last stage of each worker pipeline: a copy of every even token goes forward, the token goes back. */
    static final class SplitEven extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long t) {
            if ((t & 1) == 0) {
                sendOutTo(t, 0); // forward (FastFlow channel 1 there: feedback comes first)
            }
            sendFeedbackTo(t, 0); // back to the emitter (FastFlow channel 0)
            return goOn();
        }
    }

    /** Loop head: starts 1000, decrements what comes back, ends at zero. */
    static final class DecrementingEmitter extends Node<Long, Long> {
        final List<Long> cameBack = new ArrayList<>();

        @Override
        protected Long svc(Long t) {
            if (t == null) {
                return 1000L;
            }
            cameBack.add(t);
            long next = t - 1;
            return next <= 0 ? eos() : Long.valueOf(next);
        }
    }

    static final class Gatherer extends MultiInputNode<Long, Void> {
        final List<Long> collected = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(Long t) {
            collected.add(t);
            channels.add(inputChannel());
            return goOn();
        }
    }

    @Test
    void shouldForwardEvenTokensToTheGathererWhileTheLoopRuns() {
        DecrementingEmitter emitter = new DecrementingEmitter();
        Farm farm = Farm.of(3, () -> new Pipeline(new Pass(), new SplitEven()))
                .emitter(emitter)
                .wrapAround();
        Gatherer gatherer = new Gatherer();
        new Pipeline(farm, gatherer).runAndWaitEnd();

        List<Long> back = new ArrayList<>();
        List<Long> evens = new ArrayList<>();
        for (long v = 1000; v >= 1; v--) {
            back.add(v);
            if (v % 2 == 0) {
                evens.add(v);
            }
        }
        assertThat(emitter.cameBack).containsExactlyElementsOf(back);
        assertThat(gatherer.collected).containsExactlyInAnyOrderElementsOf(evens);
        assertThat(gatherer.inputs).isEqualTo(3);
        assertThat(gatherer.channels).allSatisfy(c -> assertThat(c).isBetween(0, 2));
    }
}
