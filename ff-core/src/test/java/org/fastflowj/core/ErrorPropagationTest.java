package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.core.StreamFixtures.infiniteSource;
import static org.fastflowj.core.StreamFixtures.nodeThreadsStartedSince;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node that throws in any life-cycle method ends the whole run promptly; waitEnd reports it with the
 * node's thread name, the method and the cause, and leaves no node thread of the run behind.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErrorPropagationTest {

    enum Phase {
        SVC_INIT("svcInit"),
        SVC("svc"),
        EOS_NOTIFY("eosNotify"),
        SVC_END("svcEnd");

        final String method;

        Phase(String method) {
            this.method = method;
        }

        /** Whether the run can only end through cancellation, so upstream may be infinite. */
        boolean beforeEndOfStream() {
            return this == SVC_INIT || this == SVC;
        }
    }

    enum Place {
        SOURCE("ff-pipe1-stage0"),
        MIDDLE_STAGE("ff-pipe1-stage1"),
        FARM_WORKER("ff-farm1-worker1"),
        ALL_TO_ALL_R_WORKER("ff-a2a1-R1"),
        COLLECTOR("ff-farm1-collector");

        final String thread;

        Place(String thread) {
            this.thread = thread;
        }
    }

    /** A checked exception, to see that the cause is kept as thrown. */
    static final class NodeBoom extends Exception {
        private static final long serialVersionUID = 1L;

        NodeBoom(String message) {
            super(message);
        }
    }

    /** Every node thread of the current test's run, recorded from svcInit. */
    private final Map<String, Thread> threads = new ConcurrentHashMap<>();

    /** A pass-through stage that records its thread. */
    final class Pass extends Node<Integer, Integer> {
        @Override
        protected void svcInit() {
            threads.put(Thread.currentThread().getName(), Thread.currentThread());
        }

        @Override
        protected Integer svc(Integer in) {
            return in;
        }
    }

    /** A source that records its thread; infinite when count < 0. */
    final class Source extends Node<Void, Integer> {
        private final int count;
        private int next;

        Source(int count) {
            this.count = count;
        }

        @Override
        protected void svcInit() {
            threads.put(Thread.currentThread().getName(), Thread.currentThread());
        }

        @Override
        protected Integer svc(Void none) {
            return count < 0 || next < count ? Integer.valueOf(next++) : eos();
        }
    }

    /** Waits, in a node, for a condition of the test. */
    interface Wait {
        void await() throws InterruptedException;
    }

    /**
     * A source that records its thread, emits 1, then on its next call waits for {@code beforeFailing} and
     * throws {@code error}.
     */
    final class OneItemThenFail extends Node<Void, Integer> {
        private final RuntimeException error;
        private final Wait beforeFailing;
        private int calls;

        OneItemThenFail(RuntimeException error, Wait beforeFailing) {
            this.error = error;
            this.beforeFailing = beforeFailing;
        }

        @Override
        protected void svcInit() {
            threads.put(Thread.currentThread().getName(), Thread.currentThread());
        }

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            if (calls++ == 0) {
                return 1;
            }
            beforeFailing.await();
            throw error;
        }
    }

    /** Throws {@code error} in {@code phase} (in svc on the third item); a pass-through otherwise. */
    final class Failing extends Node<Integer, Integer> {
        private final Phase phase;
        private final Exception error;
        private final boolean isSource;
        private final int sourceCount;
        private int calls;

        Failing(Phase phase, Exception error, boolean isSource, int sourceCount) {
            this.phase = phase;
            this.error = error;
            this.isSource = isSource;
            this.sourceCount = sourceCount;
        }

        @Override
        protected void svcInit() throws Exception {
            threads.put(Thread.currentThread().getName(), Thread.currentThread());
            failIf(Phase.SVC_INIT);
        }

        @Override
        protected Integer svc(Integer in) throws Exception {
            if (++calls == 3) {
                failIf(Phase.SVC);
            }
            if (isSource) {
                return sourceCount < 0 || calls <= sourceCount ? Integer.valueOf(calls) : eos();
            }
            return in;
        }

        @Override
        protected void eosNotify(int channel) throws Exception {
            failIf(Phase.EOS_NOTIFY);
        }

        @Override
        protected void svcEnd() throws Exception {
            failIf(Phase.SVC_END);
        }

        private void failIf(Phase now) throws Exception {
            if (phase == now) {
                throw error;
            }
        }
    }

    static Stream<Arguments> failures() {
        List<Arguments> list = new ArrayList<>();
        for (Place place : Place.values()) {
            for (Phase phase : Phase.values()) {
                if (place == Place.SOURCE && phase == Phase.EOS_NOTIFY) {
                    continue; // a source has no input stream to end
                }
                list.add(Arguments.of(place, phase, false));
                list.add(Arguments.of(place, phase, true));
            }
        }
        return list.stream();
    }

    private BuildingBlock graphFailingAt(Place place, Failing failing, int sourceCount) {
        switch (place) {
            case SOURCE:
                return new Pipeline(failing, new Pass(), new Pass());
            case MIDDLE_STAGE:
                return new Pipeline(new Source(sourceCount), failing, new Pass());
            case FARM_WORKER:
                return new Pipeline(new Source(sourceCount), Farm.of(new Pass(), failing, new Pass()), new Pass());
            case ALL_TO_ALL_R_WORKER:
                return new Pipeline(
                        new Source(sourceCount),
                        new AllToAll().firstSet(new Pass(), new Pass()).secondSet(new Pass(), failing, new Pass()),
                        new Pass());
            case COLLECTOR:
                return new Pipeline(
                        new Source(sourceCount),
                        Farm.of(new Pass(), new Pass(), new Pass()).collector(failing),
                        new Pass());
            default:
                throw new AssertionError(place);
        }
    }

    @ParameterizedTest(name = "{0} in {1}, checked={2}")
    @MethodSource("failures")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void shouldEndTheRunAndReportTheFailingNode(Place place, Phase phase, boolean checked) {
        Exception error = checked
                ? new NodeBoom("checked boom at " + place + " in " + phase)
                : new IllegalStateException("boom at " + place + " in " + phase);
        // Until the end of the stream the upstream never ends by itself: only the failure can stop the run.
        int sourceCount = phase.beforeEndOfStream() ? -1 : 200;
        Failing failing = new Failing(phase, error, place == Place.SOURCE, sourceCount);
        BuildingBlock graph = graphFailingAt(place, failing, sourceCount);
        Set<Thread> before = StreamFixtures.liveNodeThreads();

        NodeFailedException e = catchThrowableOfType(
                NodeFailedException.class,
                () -> graph.runAndWaitEnd(RunOptions.defaults().queueCapacity(4)));

        assertThat(e).as("waitEnd must throw NodeFailedException").isNotNull();
        assertThat(e.nodeName()).isEqualTo(place.thread);
        assertThat(threads).containsKey(place.thread);
        assertThat(e.phase()).isEqualTo(phase.method);
        assertThat(e.getCause()).isSameAs(error);
        assertThat(e).hasMessageContaining(place.thread).hasMessageContaining(phase.method);
        assertThat(e.getSuppressed())
                .as("no node thread outlived the cancellation")
                .isEmpty();
        assertThat(threads.values()).as("node threads of the run").noneMatch(NodeThreadStates::runsANode);
        assertThat(nodeThreadsStartedSince(before))
                .as("ff- threads started by this run and still alive")
                .isEmpty();
    }

    /** Waits (bounded) until every thread in {@code names} is parked or sleeping. */
    private void awaitParked(List<String> names) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (String name : names) {
            for (; ; ) {
                Thread t = threads.get(name);
                Thread.State s = t == null ? null : t.getState();
                if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(name + " never blocked: " + s);
                }
                Thread.sleep(1); // polling a condition with a deadline, not synchronising by sleep
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldEndPromptlyWhenProducersAreBlockedOnFullQueues(WaitStrategy strategy) {
        AtomicInteger produced = new AtomicInteger();
        Node<Void, Integer> source = new Node<>() {
            @Override
            protected void svcInit() {
                threads.put(Thread.currentThread().getName(), Thread.currentThread());
            }

            @Override
            protected Integer svc(Void none) {
                return produced.incrementAndGet();
            }
        };
        RuntimeException error = new IllegalStateException("sink gives up");
        Node<Integer, Void> sink = new Node<>() {
            @Override
            protected void svcInit() {
                threads.put(Thread.currentThread().getName(), Thread.currentThread());
            }

            @Override
            protected Void svc(Integer in) throws InterruptedException {
                // with capacity 1 everything upstream fills up while we hold the first item
                awaitParked(List.of("ff-pipe1-stage0", "ff-pipe1-stage1", "ff-pipe1-stage2"));
                throw error;
            }
        };
        Pipeline pipe = new Pipeline(source, new Pass(), new Pass(), sink);
        Set<Thread> before = StreamFixtures.liveNodeThreads();

        NodeFailedException e = catchThrowableOfType(
                NodeFailedException.class,
                () -> pipe.runAndWaitEnd(
                        RunOptions.defaults().waitStrategy(strategy).queueCapacity(1)));

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage3");
        assertThat(e.getCause()).isSameAs(error);
        assertThat(e.getSuppressed()).isEmpty();
        assertThat(produced.get())
                .as("the source was held back by the full queues")
                .isLessThan(10);
        assertThat(threads.values()).hasSize(4).noneMatch(NodeThreadStates::runsANode);
        assertThat(nodeThreadsStartedSince(before)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldEndPromptlyWhenConsumersAreBlockedOnEmptyQueues(WaitStrategy strategy) {
        RuntimeException error = new IllegalStateException("source gives up");
        // everything downstream has consumed the one item and waits on an empty queue
        Node<Void, Integer> source = new OneItemThenFail(
                error,
                () -> awaitParked(List.of(
                        "ff-farm1-emitter",
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-farm1-collector",
                        "ff-pipe1-stage2")));
        Farm farm = Farm.of(new Pass(), new Pass()).emitter(new Pass()).collector(new Pass());
        Pipeline pipe = new Pipeline(source, farm, new Pass());
        Set<Thread> before = StreamFixtures.liveNodeThreads();

        NodeFailedException e = catchThrowableOfType(
                NodeFailedException.class,
                () -> pipe.runAndWaitEnd(
                        RunOptions.defaults().waitStrategy(strategy).queueCapacity(1)));

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage0");
        assertThat(e.phase()).isEqualTo("svc");
        assertThat(e.getCause()).isSameAs(error);
        assertThat(e.getSuppressed()).isEmpty();
        assertThat(threads.values()).hasSize(6).noneMatch(NodeThreadStates::runsANode);
        assertThat(nodeThreadsStartedSince(before)).isEmpty();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldInterruptANodeSleepingInSvcWhenTheRunIsCancelled() {
        CountDownLatch asleep = new CountDownLatch(1);
        AtomicReference<Throwable> sleeperSaw = new AtomicReference<>();
        Node<Integer, Integer> sleeper = new Node<>() {
            @Override
            protected void svcInit() {
                threads.put(Thread.currentThread().getName(), Thread.currentThread());
            }

            @Override
            protected Integer svc(Integer in) throws InterruptedException {
                asleep.countDown();
                try {
                    Thread.sleep(TimeUnit.HOURS.toMillis(1)); // stuck until the cancellation interrupts it
                } catch (InterruptedException e) {
                    sleeperSaw.set(e);
                    throw e;
                }
                return in;
            }
        };
        RuntimeException error = new IllegalStateException("source fails while the stage sleeps");
        Node<Void, Integer> source = new OneItemThenFail(
                error, () -> assertThat(asleep.await(10, TimeUnit.SECONDS)).isTrue());
        Pipeline pipe = new Pipeline(source, sleeper, new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage0");
        assertThat(e.getCause())
                .as("the first failure is reported, not the interrupt it caused")
                .isSameAs(error);
        assertThat(e.getSuppressed())
                .as("the sleeping node did not have to be abandoned")
                .isEmpty();
        assertThat(sleeperSaw.get()).isInstanceOf(InterruptedException.class);
        assertThat(threads.values()).hasSize(2).noneMatch(NodeThreadStates::runsANode);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldCancelTheRunWhenTheThreadInWaitEndIsInterrupted() {
        Pipeline pipe = new Pipeline(new Source(-1), new Pass(), new Pass());
        pipe.run(RunOptions.defaults().queueCapacity(2));

        Thread.currentThread().interrupt(); // the caller gives up on an endless run
        Throwable thrown;
        boolean stillInterrupted;
        try {
            thrown = catchThrowable(pipe::waitEnd);
        } finally {
            stillInterrupted = Thread.interrupted();
        }

        assertThat(thrown).isInstanceOf(CancellationException.class).hasMessageContaining("cancelled");
        assertThat(stillInterrupted)
                .as("the interrupt status is kept for the caller")
                .isTrue();
        assertThat(threads.values()).hasSize(3).noneMatch(NodeThreadStates::runsANode);
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void shouldGiveUpOnANodeThatIgnoresCancellationAndNameIt() throws InterruptedException {
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicBoolean release = new AtomicBoolean();
        Node<Integer, Integer> deaf = new Node<>() {
            @Override
            protected void svcInit() {
                threads.put(Thread.currentThread().getName(), Thread.currentThread());
            }

            @Override
            protected Integer svc(Integer in) {
                stuck.countDown();
                while (!release.get()) {
                    try {
                        Thread.sleep(5); // polls its release flag, deaf to interrupts
                    } catch (InterruptedException ignored) {
                        // deliberately deaf to cancellation
                    }
                }
                return in;
            }
        };
        RuntimeException error = new IllegalStateException("source fails while a stage ignores interrupts");
        Node<Void, Integer> source = new Node<>() {
            private int calls;

            @Override
            protected Integer svc(Void none) throws InterruptedException {
                if (calls++ == 0) {
                    return 1;
                }
                assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
                throw error;
            }
        };
        Pipeline pipe = new Pipeline(source, deaf, new Sink<Integer>());
        NodeFailedException e;
        try {
            e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);
        } finally {
            release.set(true);
        }

        assertThat(e).isNotNull();
        assertThat(e.getCause()).isSameAs(error);
        assertThat(e.getSuppressed()).as("the abandoned thread is named").hasSize(1);
        assertThat(e.getSuppressed()[0]).hasMessageContaining("ff-pipe1-stage1");
        Thread deafThread = threads.get("ff-pipe1-stage1");
        assertThat(NodeThreadStates.awaitNoNode(deafThread, 10_000))
                .as("once released the node thread ends its node")
                .isTrue();
    }

    @Test
    void shouldReportCheckedExceptionOfACombinersSecondNodeAsThrown() {
        IOException error = new IOException("second node failed");
        Node<Integer, Integer> first = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOut(in); // the second node runs inside this call
                return goOn();
            }
        };
        Node<Integer, Integer> second = new Node<>() {
            @Override
            protected Integer svc(Integer in) throws IOException {
                if (in == 5) {
                    throw error;
                }
                return in;
            }
        };
        Pipeline pipe = new Pipeline(infiniteSource(), Combiner.of(first, second), new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.phase()).isEqualTo("svc");
        assertThat(e.getCause()).isSameAs(error);
    }

    @Test
    void shouldReportCheckedExceptionFromSecondNodeOfACombinerInEosNotify() {
        NodeBoom error = new NodeBoom("second node failed at the end");
        Node<Integer, Integer> second = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            @Override
            protected void eosNotify(int channel) throws NodeBoom {
                throw error;
            }
        };
        Pipeline pipe = new Pipeline(new Source(10), Combiner.of(new Pass(), second), new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.phase()).isEqualTo("eosNotify");
        assertThat(e.getCause()).isSameAs(error);
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void shouldReportAnErrorThrownFromSvcAsTheCause() {
        AssertionError error = new AssertionError("an Error, not an Exception");
        Node<Integer, Integer> failing = new Node<>() {
            private int calls;

            @Override
            protected Integer svc(Integer in) {
                if (++calls == 2) {
                    throw error;
                }
                return in;
            }
        };
        Pipeline pipe = new Pipeline(new Source(-1), Farm.of(new Pass(), failing), new Pass());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-farm1-worker1");
        assertThat(e.getCause()).isSameAs(error);
    }

    @Test
    void shouldReportOnlyTheFirstFailureWhenSeveralNodesFail() {
        CountDownLatch firstFailed = new CountDownLatch(1);
        RuntimeException first = new IllegalStateException("first");
        Node<Integer, Integer> failsFirst = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                firstFailed.countDown();
                throw first;
            }
        };
        Node<Integer, Integer> failsSecond = new Node<>() {
            @Override
            protected Integer svc(Integer in) throws InterruptedException {
                firstFailed.await(10, TimeUnit.SECONDS);
                // Fail after the first failure was recorded: the cancellation interrupts this sleep, and
                // the InterruptedException is a second failure that must not be the one reported.
                Thread.sleep(10_000);
                throw new IllegalStateException("second");
            }
        };
        Farm farm = Farm.of(failsFirst, failsSecond);
        Pipeline pipe = new Pipeline(infiniteSource(), farm, new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-farm1-worker0");
        assertThat(e.getCause()).isSameAs(first);
    }
}
