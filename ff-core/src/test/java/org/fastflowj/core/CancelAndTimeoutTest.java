package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.infiniteSource;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CancelAndTimeoutTest {
    /** Records the threads it runs on, then passes items on. */
    static final class Tracked extends Node<Integer, Integer> {
        final Set<Thread> threads;
        int svcEnds;

        Tracked(Set<Thread> threads) {
            this.threads = threads;
        }

        @Override
        protected void svcInit() {
            threads.add(Thread.currentThread());
        }

        @Override
        protected Integer svc(Integer x) {
            return x;
        }

        @Override
        protected void svcEnd() {
            svcEnds++;
        }
    }

    @Test
    void shouldReturnFalseWhileAnEndlessRunGoesOnAndStopItOnCancel() {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        Tracked stage = new Tracked(threads);
        Pipeline pipe = new Pipeline(infiniteSource(), Farm.of(2, () -> new Tracked(threads)), stage);
        pipe.run();

        assertThat(pipe.waitEnd(50, TimeUnit.MILLISECONDS)).as("an endless run is still going").isFalse();
        assertThat(threads).allMatch(Thread::isAlive);

        pipe.cancel();
        assertThatThrownBy(pipe::waitEnd).isInstanceOf(CancellationException.class);
        assertThat(threads).hasSize(3).noneMatch(Thread::isAlive);
        assertThat(stage.svcEnds).as("a cancelled node runs no svcEnd").isZero();
    }

    @Test
    void shouldReturnTrueWhenTheRunEndsInTime() {
        List<Integer> out = new java.util.ArrayList<>();
        Pipeline pipe = new Pipeline(Node.source(List.of(1, 2, 3)), Node.<Integer>sink(out::add));
        pipe.run();
        assertThat(pipe.waitEnd(20, TimeUnit.SECONDS)).isTrue();
        assertThat(out).containsExactly(1, 2, 3);
        pipe.cancel(); // after the end: nothing to do, no error
        assertThat(pipe.waitEnd(1, TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void shouldRefuseToCancelABlockThatNeverRan() {
        assertThatThrownBy(() -> new Pipeline(infiniteSource()).cancel()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run()");
    }
}
