package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.infiniteSource;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
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

        assertThat(pipe.waitEnd(50, TimeUnit.MILLISECONDS))
                .as("an endless run is still going")
                .isFalse();
        assertThat(threads).allMatch(NodeThreadStates::runsANode);

        pipe.cancel();
        assertThatThrownBy(pipe::waitEnd).isInstanceOf(CancellationException.class);
        assertThat(threads).hasSize(3).noneMatch(NodeThreadStates::runsANode);
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
        assertThatThrownBy(() -> new Pipeline(infiniteSource()).cancel())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run()");
    }

    @Test
    void shouldReportAFailureByTheDeadlineEvenWhileAThreadIsStillStuck() throws InterruptedException {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Node<Integer, Integer> ignoresInterrupts = new Node<>() {
            @Override
            protected Integer svc(Integer x) {
                stuck.countDown();
                while (release.getCount() > 0) {
                    try {
                        release.await(); // deaf to the cancellation's interrupt
                    } catch (InterruptedException ignored) {
                        // keep waiting
                    }
                }
                return x;
            }
        };
        Node<Integer, Integer> fails = new Node<>() {
            @Override
            protected Integer svc(Integer x) throws InterruptedException {
                stuck.await(); // fail only once the other worker is stuck in its svc
                throw new IllegalStateException("boom");
            }
        };
        Pipeline pipe = new Pipeline(
                Node.source(List.of(1, 2)), Farm.of(ignoresInterrupts, fails).onDemand());
        pipe.run();
        stuck.await();
        try {
            assertThatThrownBy(() -> {
                        while (!pipe.waitEnd(100, TimeUnit.MILLISECONDS)) {
                            // keep waiting in short slices, as a caller with a deadline would
                        }
                    })
                    .as("reported while a node is still stuck")
                    .isInstanceOf(NodeFailedException.class)
                    .hasRootCauseMessage("boom");
        } finally {
            release.countDown();
        }
        assertThatThrownBy(pipe::waitEnd).isInstanceOf(NodeFailedException.class); // then waits them out
    }

    @Test
    void shouldFailTheRunWhenAForeignThreadSendsEvenIfItsExceptionIsSwallowed() {
        Node<Integer, Integer> leaky = new Node<>() {
            @Override
            protected Integer svc(Integer x) throws InterruptedException {
                Thread helper = new Thread(() -> {
                    try {
                        sendOut(x);
                    } catch (IllegalStateException swallowed) {
                        // a careless callback
                    }
                });
                helper.start();
                helper.join();
                return x;
            }
        };
        Pipeline pipe = new Pipeline(Node.source(List.of(1, 2, 3)), leaky, Node.<Integer>sink(x -> {}));
        assertThatThrownBy(pipe::runAndWaitEnd)
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("ff-pipe1-stage1")
                .hasMessageContaining("another thread");
    }

    @Test
    void shouldRefuseToOffloadOnceTheBlockFailed() throws InterruptedException {
        Accelerator<Integer, Integer> acc = Accelerator.start(Node.<Integer, Integer>of(x -> {
            throw new IllegalArgumentException("bad " + x);
        }));
        acc.offload(1);
        while (!failed(acc)) {
            Thread.onSpinWait();
        }
        assertThatThrownBy(() -> acc.offload(2))
                .isInstanceOf(NodeFailedException.class)
                .hasRootCauseMessage("bad 1");
    }

    private static boolean failed(Accelerator<?, ?> acc) {
        try {
            acc.waitEnd(1, TimeUnit.MILLISECONDS);
            return false;
        } catch (NodeFailedException e) {
            return true;
        }
    }
}
