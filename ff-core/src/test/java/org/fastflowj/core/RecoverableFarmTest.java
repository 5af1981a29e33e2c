package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.RecoverableFarm;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.runtime.recovery.RecoveryHooks;
import org.fastflowj.core.runtime.recovery.Redelivery;
import org.fastflowj.core.runtime.recovery.TakeRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Farm#recoverable()}: the rules checked when the graph is built, the worker edges the compiled graph
 * names, and the emitter's {@link Redelivery}: items handed back go to the workers once more, and the
 * emitter's EOS waits until every item on a watched output is settled.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecoverableFarmTest {
    static class Numbers extends Node<Void, Long> {
        private final long count;
        volatile boolean allSent;

        Numbers(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < count; i++) {
                sendOut(i);
            }
            allSent = true;
            return eos();
        }
    }

    static final class Collect extends MultiInputNode<Long, Void> {
        final List<Long> got = Collections.synchronizedList(new ArrayList<>());
        volatile boolean ended;

        @Override
        protected Void svc(Long x) {
            got.add(x);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    private static List<Node<Long, Long>> identities(int n) {
        List<Node<Long, Long>> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            workers.add(Node.of(x -> x));
        }
        return workers;
    }

    @Test
    void shouldNameEachWorkersDispatchAndReturnEdge() {
        List<Node<Long, Long>> workers = identities(3);
        Numbers emitter = new Numbers(1);
        Collect collector = new Collect();
        Graph graph = GraphCompiler.compile(
                Farm.of(workers).emitter(emitter).collector(collector).recoverable());

        assertThat(graph.recoverableFarms()).hasSize(1);
        RecoverableFarm farm = graph.recoverableFarms().get(0);
        assertThat(farm.emitter().node()).isSameAs(emitter);
        for (int i = 0; i < 3; i++) {
            Edge dispatch = farm.dispatch().get(i);
            Edge back = farm.returns().get(i);
            assertThat(dispatch.from().node()).isSameAs(emitter);
            assertThat(dispatch.to().node()).isSameAs(workers.get(i));
            assertThat(back.from().node()).isSameAs(workers.get(i));
            assertThat(back.to().node()).isSameAs(collector);
            assertThat(farm.emitter().forwardOut().indexOf(dispatch)).isEqualTo(i);
        }
        assertThat(GraphCompiler.compile(
                                Farm.of(identities(2)).emitter(new Numbers(1)).collector(new Collect()))
                        .recoverableFarms())
                .isEmpty();
    }

    @Test
    void shouldTakeAMasterWorkersResultsBackOnTheFeedbackEdges() {
        Graph graph = GraphCompiler.compile(Farm.of(identities(2))
                .emitter(Node.<Long, Long>of(x -> x))
                .wrapAround()
                .recoverable());

        RecoverableFarm farm = graph.recoverableFarms().get(0);
        assertThat(farm.returns()).allSatisfy(e -> {
            assertThat(e.kind()).isEqualTo(Edge.Kind.FEEDBACK);
            assertThat(e.to()).isSameAs(farm.emitter());
        });
    }

    @Test
    void shouldRefuseAFarmWhoseOutputsCannotBePairedWithItsItems() {
        Supplier<Farm> plain =
                () -> Farm.of(identities(2)).emitter(new Numbers(1)).collector(new Collect());
        assertRefused(Farm.of(identities(2)).collector(new Collect()), "needs an emitter of its own");
        assertRefused(plain.get().ordered(), "cannot be ordered: drop ordered()");
        assertRefused(Farm.of(identities(2)).emitter(new Numbers(1)), "give it a collector, or wrapAround()");
        assertRefused(
                Farm.of(identities(2))
                        .emitter(new MultiOutputNode<Void, Long>() {
                            @Override
                            protected Long svc(Void none) {
                                return eos();
                            }
                        })
                        .collector(new Collect()),
                "must not choose workers");
        assertRefused(
                Farm.of(Farm.of(identities(1)), Node.<Long, Long>of(x -> x))
                        .emitter(new Numbers(1))
                        .collector(new Collect()),
                "worker 0 is Farm(1 workers), but its workers must be nodes or pipelines of nodes");
    }

    private static void assertRefused(Farm farm, String why) {
        assertThatThrownBy(() -> GraphCompiler.compile(farm.recoverable()))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("is recoverable, so")
                .hasMessageContaining(why);
    }

    @Test
    void shouldChangeNothingInOneProcess() {
        Collect collector = new Collect();
        Farm.of(identities(3))
                .emitter(new Numbers(500))
                .collector(collector)
                .recoverable()
                .runAndWaitEnd();

        assertThat(collector.got).hasSize(500).doesNotHaveDuplicates();
    }

    /** Watches one output; what it settles and hands back is up to the test. */
    static class TestRedelivery implements Redelivery {
        final ConcurrentLinkedQueue<Object> handedBack = new ConcurrentLinkedQueue<>();
        final AtomicLong settled = new AtomicLong();
        private final int watched;

        TestRedelivery(int watched) {
            this.watched = watched;
        }

        @Override
        public int[] watchedOutputs() {
            return new int[] {watched};
        }

        @Override
        public boolean pending() {
            return !handedBack.isEmpty();
        }

        @Override
        public Object poll() {
            return handedBack.poll();
        }

        @Override
        public long settled(int output) {
            return settled.get();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldSendHandedBackItemsAgainAndHoldTheEmittersEndUntilItsWatchedOutputIsSettled(boolean onDemand)
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        TestRedelivery redelivery = new TestRedelivery(1);
        // Worker 1 stands for a remote worker: each item it finishes settles one, once the test lets it work.
        Node<Long, Long> watched = new Node<>() {
            @Override
            protected Long svc(Long x) throws InterruptedException {
                release.await();
                redelivery.settled.incrementAndGet();
                return x;
            }
        };
        Numbers emitter = new Numbers(200);
        Collect collector = new Collect();
        Farm farm = Farm.of(Node.<Long, Long>of(x -> x), watched)
                .emitter(emitter)
                .collector(collector)
                .recoverable();
        if (onDemand) {
            farm.onDemand();
        }
        Graph graph = GraphCompiler.compile(farm);
        String emitterName = graph.recoverableFarms().get(0).emitter().name();

        Execution run = Executor.start(
                graph, RunOptions.defaults(), RunHooks.NONE.recovery(redeliveryOf(emitterName, redelivery)));
        while (!emitter.allSent) {
            assertThat(run.await(10, TimeUnit.MILLISECONDS))
                    .as("the run ended before the emitter's items went out")
                    .isFalse();
        }
        redelivery.handedBack.add(1_000L);
        redelivery.handedBack.add(1_001L);
        // worker 1 answered nothing yet: the emitter holds its EOS, so the collector is still running
        assertThat(run.await(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(collector.ended).isFalse();
        release.countDown();
        run.await();

        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 200; i++) {
            expected.add(i);
        }
        expected.add(1_000L);
        expected.add(1_001L);
        assertThat(collector.got).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(collector.ended).isTrue();
    }

    /** {@link Numbers} that notes when its end began (after its EOS, so after its redelivery's end). */
    static final class EndWatchingNumbers extends Numbers {
        volatile boolean ended;

        EndWatchingNumbers(long count) {
            super(count);
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    /**
     * A recoverable on-demand emitter ends only once nothing it sent waits on its staging channel: an item
     * staged after that could still go to a remote worker, and if that worker's group were lost it would
     * come back to an emitter that takes nothing more (a silent loss). The workers' rounds take
     * from staging while the emitter looks; a look at the head slot from the producer's side then often read
     * "empty" (the slot is cleared before the consumer index moves) with thousands of items behind it, and
     * the emitter ended early. Once it ends, the workers may only finish what their slots and hands hold.
     */
    @Test
    void shouldHoldAnOnDemandEmittersEndUntilNothingItSentIsStaged() throws Exception {
        for (int round = 0; round < 10; round++) { // ten rounds: an end that races its staging shows within them
            int items = 200_000;
            int workerCount = 4;
            EndWatchingNumbers emitter = new EndWatchingNumbers(items);
            AtomicLong afterEnd = new AtomicLong();
            List<Node<Long, Long>> workers = new ArrayList<>();
            for (int i = 0; i < workerCount; i++) {
                workers.add(Node.of(x -> {
                    if (emitter.ended) {
                        afterEnd.incrementAndGet();
                    }
                    return x;
                }));
            }
            Collect collector = new Collect();
            Farm farm = Farm.of(workers)
                    .emitter(emitter)
                    .collector(collector)
                    .onDemand()
                    .recoverable();
            Graph graph = GraphCompiler.compile(farm);
            String emitterName = graph.recoverableFarms().get(0).emitter().name();
            TestRedelivery nothingWatched = new TestRedelivery(0) {
                @Override
                public int[] watchedOutputs() {
                    return new int[0]; // only the staging channel holds the end back
                }
            };

            Execution run = Executor.start(
                    graph,
                    RunOptions.defaults().queueCapacity(1 << 16),
                    RunHooks.NONE.recovery(redeliveryOf(emitterName, nothingWatched)));
            run.await();

            assertThat(collector.got).hasSize(items);
            assertThat(afterEnd.get())
                    .as(
                            "round %d: items the workers took after the emitter's end: at most what each slot and"
                                    + " hand held then",
                            round)
                    .isLessThanOrEqualTo(3L * workerCount);
        }
    }

    @Test
    void shouldFailNamingTheEmitterWhenItemsComeBackAndNoWorkerIsLeft() throws Exception {
        CountDownLatch workerEnded = new CountDownLatch(1);
        TestRedelivery redelivery = new TestRedelivery(0);
        Node<Long, Long> quitter = new Node<>() {
            @Override
            protected Long svc(Long x) {
                return eos(); // ends at its first item: its channel is gone
            }

            @Override
            protected void svcEnd() {
                workerEnded.countDown();
            }
        };
        Farm farm = Farm.of(quitter)
                .emitter(new Numbers(3))
                .collector(new Collect())
                .recoverable();
        Graph graph = GraphCompiler.compile(farm);
        String emitterName = graph.recoverableFarms().get(0).emitter().name();
        Execution run = Executor.start(
                graph, RunOptions.defaults(), RunHooks.NONE.recovery(redeliveryOf(emitterName, redelivery)));
        workerEnded.await();
        redelivery.handedBack.add(7L); // the emitter still waits: nothing it sent was settled

        assertThatThrownBy(run::await)
                .hasMessageContaining(emitterName)
                .hasMessageContaining("every worker of its recoverable farm is gone");
    }

    /** Recovery for one node, the farm's emitter: its redelivery; nothing for any other node. */
    private static RecoveryHooks redeliveryOf(String emitterName, Redelivery redelivery) {
        return new RecoveryHooks() {
            @Override
            public Redelivery redeliveryFor(String nodeName) {
                return nodeName.equals(emitterName) ? redelivery : null;
            }

            @Override
            public TakeRecorder takeRecorderFor(String nodeName) {
                return null;
            }
        };
    }
}
