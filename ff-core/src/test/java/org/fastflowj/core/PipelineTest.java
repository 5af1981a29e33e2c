package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pipelines: chains of stages, nesting, run/waitEnd, and the wrap-around feedback loop. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipelineTest {

    /** Adds one and records the thread that ran it. */
    static final class Increment extends Node<Integer, Integer> {
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        @Override
        protected Integer svc(Integer in) {
            threads.add(Thread.currentThread().getName());
            return in + 1;
        }
    }

    @ParameterizedTest(name = "{0} stages")
    @ValueSource(ints = {2, 3, 4, 5})
    void shouldPassEveryItemThroughEveryStageInOrder(int stages) {
        int n = 500;
        Pipeline pipe = new Pipeline(source(n));
        List<Increment> middles = new ArrayList<>();
        for (int i = 0; i < stages - 2; i++) {
            Increment inc = new Increment();
            middles.add(inc);
            pipe.add(inc);
        }
        Sink<Integer> sink = new Sink<>();
        pipe.add(sink);

        pipe.runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(i + stages - 2);
        }
        assertThat(sink.items).containsExactlyElementsOf(expected);
        assertThat(sink.threadName).isEqualTo("ff-pipe1-stage" + (stages - 1));
        for (int i = 0; i < middles.size(); i++) {
            assertThat(middles.get(i).threads).containsExactly("ff-pipe1-stage" + (i + 1));
        }
    }

    @Test
    void shouldRunNestedPipelinesAsOneChain() {
        Increment a = new Increment();
        Increment b = new Increment();
        Increment c = new Increment();
        Sink<Integer> sink = new Sink<>();
        Pipeline pipe = new Pipeline(new Pipeline(source(100), a), new Pipeline(b, new Pipeline(c, sink)));

        pipe.runAndWaitEnd();

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add(i + 3);
        }
        assertThat(sink.items).containsExactlyElementsOf(expected);
        assertThat(a.threads).containsExactly("ff-pipe1-stage0-stage1");
        assertThat(b.threads).containsExactly("ff-pipe1-stage1-stage0");
        assertThat(c.threads).containsExactly("ff-pipe1-stage1-stage1-stage0");
        assertThat(sink.threadName).isEqualTo("ff-pipe1-stage1-stage1-stage1");
    }

    @Test
    void shouldRunASingleStagePipeline() {
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        Node<Void, Integer> only = new Node<>() {
            private int n;

            @Override
            protected Integer svc(Void none) {
                seen.add(n);
                return n++ < 3 ? goOn() : eos();
            }
        };

        new Pipeline(only).runAndWaitEnd();

        assertThat(seen).containsExactly(0, 1, 2, 3);
    }

    @Test
    void shouldCompleteAfterRunThenWaitEnd() {
        Sink<Integer> sink = new Sink<>();
        Pipeline pipe = new Pipeline(source(1000), new Increment(), sink);

        pipe.run();
        pipe.waitEnd();

        assertThat(sink.items).hasSize(1000);
        assertThat(sink.svcEndCalls).isEqualTo(1);
    }

    @Test
    void shouldReturnFromRunBeforeTheStreamEnds() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Node<Void, Integer> gated = new Node<>() {
            private int n;

            @Override
            protected Integer svc(Void none) throws InterruptedException {
                if (n == 0) {
                    release.await();
                }
                return n < 5 ? Integer.valueOf(n++) : eos();
            }
        };
        Sink<Integer> sink = new Sink<>();
        Pipeline pipe = new Pipeline(gated, sink);

        pipe.run(); // the source is still gated: run() must not wait for it
        assertThat(sink.items).isEmpty();
        release.countDown();
        pipe.waitEnd();

        assertThat(sink.items).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void shouldRunAgainAfterARunEnded() {
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        Node<Void, Integer> src = new Node<>() {
            private int n;

            @Override
            protected void svcInit() {
                n = 0;
            }

            @Override
            protected Integer svc(Void none) {
                return n < 3 ? Integer.valueOf(n++) : eos();
            }
        };
        Pipeline pipe = new Pipeline(src, Node.of((Integer x) -> {
            seen.add(x);
            return x;
        }));

        pipe.runAndWaitEnd();
        pipe.runAndWaitEnd();

        assertThat(seen).containsExactly(0, 1, 2, 0, 1, 2);
    }

    /** Heads a wrapped-around pipeline: sends k tasks on svc(null), ends when all came back. */
    static final class LoopHead extends Node<Integer, Integer> {
        private final int tasks;
        final List<Integer> inputs = Collections.synchronizedList(new ArrayList<>());
        volatile int nullCalls;
        volatile int eosNotifyCalls;
        volatile int svcEndCalls;

        LoopHead(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Integer svc(Integer in) {
            if (in == null) {
                nullCalls++;
                for (int i = 0; i < tasks; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            inputs.add(in);
            return inputs.size() == tasks ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosNotifyCalls++;
        }

        @Override
        protected void svcEnd() {
            svcEndCalls++;
        }
    }

    @Test
    void shouldLoopTasksBackToTheFirstStageAndEndWhenItReturnsEos() {
        LoopHead head = new LoopHead(200);
        Sink<Integer> lastSeen = new Sink<>();
        Node<Integer, Integer> last = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                lastSeen.items.add(in);
                return in + 1000;
            }

            @Override
            protected void eosNotify(int channel) {
                lastSeen.eosChannels.add(channel);
            }
        };

        new Pipeline(head, new Increment(), last)
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(2));

        assertThat(head.nullCalls).isEqualTo(1);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add(i + 1 + 1000);
        }
        assertThat(head.inputs).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(head.eosNotifyCalls)
                .as("EOS does not come back round the loop")
                .isZero();
        assertThat(head.svcEndCalls).isEqualTo(1);
        assertThat(lastSeen.items).hasSize(200);
        assertThat(lastSeen.eosChannels)
                .as("the head's EOS reaches the last stage once")
                .containsExactly(-1);
    }

    @Test
    void shouldKeepFeedingTheLoopFromFeedbackItems() {
        // each task goes round 5 times before the head retires it
        List<Integer> retired = Collections.synchronizedList(new ArrayList<>());
        Node<int[], int[]> head = new Node<>() {
            private int done;

            @Override
            protected int[] svc(int[] in) {
                if (in == null) {
                    for (int i = 0; i < 20; i++) {
                        sendOut(new int[] {i, 0});
                    }
                    return goOn();
                }
                if (in[1] < 5) {
                    return in;
                }
                retired.add(in[0]);
                return ++done == 20 ? eos() : goOn();
            }
        };
        Node<int[], int[]> lap = Node.of((int[] t) -> new int[] {t[0], t[1] + 1});

        new Pipeline(head, lap).wrapAround().runAndWaitEnd(RunOptions.defaults().queueCapacity(1));

        assertThat(retired).containsExactlyInAnyOrderElementsOf(ints(20));
    }

    @Test
    void shouldUseAWrappedPipelineAsLastStageFedByAStream() {
        // a stream enters a loop; the loop's head ends when the stream ended and all laps are done
        List<Integer> done = Collections.synchronizedList(new ArrayList<>());
        Node<Integer, Integer> head = new Node<>() {
            private int outstanding;
            private boolean ended;

            @Override
            protected Integer svc(Integer in) {
                if (in >= 0) {
                    outstanding++;
                    return -in - 1;
                }
                done.add(-in - 1);
                outstanding--;
                return ended && outstanding == 0 ? eos() : goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                ended = true;
                if (outstanding == 0) {
                    sendOut(eos());
                }
            }
        };

        new Pipeline(source(50), new Pipeline(head, Node.of((Integer x) -> x)).wrapAround()).runAndWaitEnd();

        assertThat(done).containsExactlyInAnyOrderElementsOf(ints(50));
    }

    @Test
    void shouldFeedANextStageFromAWrappedPipelineWhoseLastStageChooses() {
        // items go round the loop until they reach 3, then leave it for the next stage
        Node<Integer, Integer> head = new Node<>() {
            private int left = 10;

            @Override
            protected Integer svc(Integer in) {
                if (in == null) {
                    for (int i = 0; i < 10; i++) {
                        sendOut(0);
                    }
                    return goOn();
                }
                sendOut(in);
                return in == 3 && --left == 0 ? eos() : goOn();
            }
        };
        List<String> channels = Collections.synchronizedList(new ArrayList<>());
        MultiOutputNode<Integer, Integer> lap = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                channels.add(outputChannels() + "/" + feedbackChannels());
                if (in < 3) {
                    sendFeedbackTo(in + 1, 0);
                } else {
                    sendOutTo(in, 0);
                }
                return goOn();
            }
        };
        Sink<Integer> sink = new Sink<>();

        new Pipeline(new Pipeline(head, lap).wrapAround(), sink).runAndWaitEnd();

        assertThat(sink.items).hasSize(10).containsOnly(3);
        assertThat(channels).hasSize(40).containsOnly("1/1");
        assertThat(sink.eosChannels).containsExactly(-1);
    }

    @Test
    void shouldKeepOrderThroughALongLinearPipeline() {
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(20_000), Node.of((Integer x) -> x), Node.of((Integer x) -> x), sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(16));

        assertThat(sink.items).containsExactlyElementsOf(ints(20_000));
    }
}
