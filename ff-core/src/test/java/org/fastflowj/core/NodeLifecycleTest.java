package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.core.StreamFixtures.infiniteSource;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.fastflowj.core.StreamFixtures.Sink;
import org.fastflowj.core.testing.NodeTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The life cycle of a sequential node: svcInit, svc results (item, GO_ON, EOS), sendOut, eosNotify, svcEnd. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeLifecycleTest {

    /** A pass-through stage that logs its life-cycle calls. */
    static final class RecordingStage extends Node<Integer, Integer> {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected void svcInit() {
            events.add("svcInit");
        }

        @Override
        protected Integer svc(Integer in) {
            events.add("svc:" + in);
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            events.add("eosNotify:" + channel);
        }

        @Override
        protected void svcEnd() {
            events.add("svcEnd");
        }
    }

    @Test
    void shouldRunSvcInitOnceBeforeSvcAndSvcEndOnceAfterEosNotify() {
        RecordingStage stage = new RecordingStage();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(3), stage, sink).runAndWaitEnd();

        assertThat(stage.events).containsExactly("svcInit", "svc:0", "svc:1", "svc:2", "eosNotify:-1", "svcEnd");
        assertThat(sink.items).containsExactly(0, 1, 2);
        assertThat(sink.svcEndCalls).isEqualTo(1);
    }

    @Test
    void shouldRunSvcEndOnlyAfterEosWasSentDownstream() {
        CountDownLatch sinkSawEos = new CountDownLatch(1);
        AtomicInteger middleEndCalls = new AtomicInteger();
        List<Boolean> eosAlreadyDownstreamAtSvcEnd = Collections.synchronizedList(new ArrayList<>());
        Node<Integer, Integer> middle = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            @Override
            protected void svcEnd() throws InterruptedException {
                middleEndCalls.incrementAndGet();
                // If EOS were sent after svcEnd, the sink could never see it while we wait here.
                eosAlreadyDownstreamAtSvcEnd.add(sinkSawEos.await(20, TimeUnit.SECONDS));
            }
        };
        Node<Integer, Void> sink = new Node<>() {
            @Override
            protected Void svc(Integer in) {
                return goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                sinkSawEos.countDown();
            }
        };

        new Pipeline(source(5), middle, sink).runAndWaitEnd();

        assertThat(middleEndCalls).hasValue(1);
        assertThat(eosAlreadyDownstreamAtSvcEnd).containsExactly(true);
    }

    /** Passes even items on; GO_ON for odd ones. */
    static final class EvensOnly extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer in) {
            return in % 2 == 0 ? in : goOn();
        }
    }

    @Test
    void shouldEmitNothingWhenSvcReturnsGoOn() {
        NodeTestSupport.verify(EvensOnly::new)
                .input(ints(10))
                .expectOutput(0, 2, 4, 6, 8)
                .run();
        NodeTestSupport.verify(EvensOnly::new).input(1, 3, 5).expectNoOutput().run();
    }

    /** Sends its first {@code k} items on, then returns EOS. */
    static final class FirstK extends Node<Integer, Integer> {
        private final int k;
        int calls;

        FirstK(int k) {
            this.k = k;
        }

        @Override
        protected Integer svc(Integer in) {
            calls++;
            sendOut(in);
            return calls == k ? eos() : goOn();
        }
    }

    @Test
    void shouldEndPipelineWhenMiddleStageReturnsEosWhileInputRemains() {
        int k = 7;

        NodeTestSupport.verify(() -> new FirstK(k))
                .input(ints(1000))
                .expectOutput(ints(k))
                .assertNode(firstK -> assertThat(firstK.calls)
                        .as("svc is not called after it returned eos()")
                        .isEqualTo(k))
                .run();
    }

    @Test
    void shouldStopInfiniteSourceWhenDownstreamStageEnds() {
        int k = 10;
        Node<Integer, Integer> firstK = passFirst(k);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(infiniteSource(), firstK, sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        assertThat(sink.items).containsExactlyElementsOf(ints(k));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queueKinds")
    void shouldStopInfiniteSourceWorkersWhenTheStageAfterThemEnds(String kind, RunOptions options) {
        Node<Integer, Integer> firstTen = passFirst(10);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(Farm.of(3, StreamFixtures::infiniteSource), firstTen, sink).runAndWaitEnd(options);

        assertThat(sink.items).hasSize(10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queueKinds")
    void shouldStopInfiniteSourceWhenDownstreamEndsWhateverTheQueues(String kind, RunOptions options) {
        Node<Integer, Integer> firstTen = passFirst(10);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(infiniteSource(), Node.of((Integer x) -> x), firstTen, sink).runAndWaitEnd(options);

        assertThat(sink.items).containsExactlyElementsOf(ints(10));
    }

    /** A stage forwarding its first {@code n} items, then returning eos() on the next one. */
    private static Node<Integer, Integer> passFirst(int n) {
        return new Node<>() {
            private int seen;

            @Override
            protected Integer svc(Integer in) {
                return seen++ < n ? in : eos();
            }
        };
    }

    static Stream<Arguments> queueKinds() {
        return Stream.of(
                Arguments.of(
                        "capacity 1, BLOCKING",
                        RunOptions.defaults().queueCapacity(1).waitStrategy(WaitStrategy.BLOCKING)),
                Arguments.of("default", RunOptions.defaults()),
                Arguments.of("unbounded", RunOptions.defaults().unboundedQueues(true)),
                Arguments.of(
                        "unbounded, BLOCKING",
                        RunOptions.defaults().unboundedQueues(true).waitStrategy(WaitStrategy.BLOCKING)));
    }

    /** Three outputs per item: two sent, one returned. */
    static final class Triple extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer in) {
            sendOut(in * 10);
            sendOut(in * 10 + 1);
            return in * 10 + 2;
        }
    }

    @Test
    void shouldDeliverSeveralOutputsOfOneSvcCallInOrder() {
        NodeTestSupport.verify(Triple::new)
                .input(0, 1, 2, 3)
                .expectOutput(0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32)
                .run();
    }

    /** Sums its input, and sends the sum and a -1 from eosNotify. */
    static final class Summer extends Node<Integer, Integer> {
        private int sum;

        @Override
        protected Integer svc(Integer in) {
            sum += in;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(sum);
            sendOut(-1);
        }
    }

    @Test
    void shouldDeliverItemsSentFromEosNotifyBeforeEos() {
        // the harness checks that the EOS comes once, after both items
        NodeTestSupport.verify(Summer::new).input(ints(10)).expectOutput(45, -1).run();
    }

    @Test
    void shouldCallSourceWithNullUntilItReturnsEos() {
        List<Object> inputs = Collections.synchronizedList(new ArrayList<>());
        Node<Void, Integer> source = new Node<>() {
            private int next;

            @Override
            protected Integer svc(Void none) {
                inputs.add(none == null ? "null" : none);
                return next < 5 ? Integer.valueOf(next++) : eos();
            }
        };
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source, sink).runAndWaitEnd();

        assertThat(inputs)
                .as("5 items, then the call returning eos(), then no more calls")
                .hasSize(6)
                .containsOnly("null");
        assertThat(sink.items).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void shouldNumberPipelineStagesFromZero() {
        List<Integer> ids = Collections.synchronizedList(new ArrayList<>());
        class IdRecorder extends Node<Integer, Integer> {
            private final int slot;

            IdRecorder(int slot) {
                this.slot = slot;
            }

            @Override
            protected void svcInit() {
                ids.set(slot, id());
            }

            @Override
            protected Integer svc(Integer in) {
                return in;
            }
        }
        Node<Void, Integer> src = new Node<>() {
            private int n;

            @Override
            protected void svcInit() {
                ids.set(0, id());
            }

            @Override
            protected Integer svc(Void none) {
                return n++ < 3 ? Integer.valueOf(n) : eos();
            }
        };
        for (int i = 0; i < 4; i++) {
            ids.add(-100);
        }

        new Pipeline(src, new IdRecorder(1), new IdRecorder(2), new IdRecorder(3)).runAndWaitEnd();

        assertThat(ids).containsExactly(0, 1, 2, 3);
    }

    @Test
    void shouldApplyFunctionOfNodeOf() {
        Sink<String> sink = new Sink<>();

        new Pipeline(source(4), Node.of((Integer x) -> x * 2), Node.of((Integer x) -> "v" + x), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly("v0", "v2", "v4", "v6");
    }

    @Test
    void shouldFailNamingTheNodeWhenSvcReturnsBareNull() {
        Node<Integer, Integer> broken = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in < 3 ? in : null;
            }

            @Override
            public String toString() {
                return "the-broken-stage";
            }
        };
        Pipeline pipe = new Pipeline(source(10), broken, new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.phase()).isEqualTo("svc");
        assertThat(e).hasMessageContaining("ff-pipe1-stage1");
        assertThat(e.getCause())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("the-broken-stage")
                .hasMessageContaining("null");
    }

    @Test
    void shouldFailWhenNodeOfFunctionReturnsNull() {
        Pipeline pipe = new Pipeline(source(3), Node.of((Integer x) -> (Integer) null), new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.getCause()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldNotifyDownstreamOnceWhenTheStreamIsEmpty() {
        RecordingStage stage = new RecordingStage();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(0), stage, sink).runAndWaitEnd();

        assertThat(stage.events).containsExactly("svcInit", "eosNotify:-1", "svcEnd");
        assertThat(sink.items).isEmpty();
        assertThat(sink.eosChannels).containsExactly(-1);
        assertThat(sink.svcEndCalls).isEqualTo(1);
    }

    @Test
    void shouldFailWhenSendOutIsGivenNull() {
        Node<Integer, Integer> sendsNull = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOut(null);
                return in;
            }
        };
        Pipeline pipe = new Pipeline(source(3), sendsNull, new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.getCause()).isInstanceOf(NullPointerException.class).hasMessageContaining("sendOut(null)");
    }

    /** Sends -1 from svcInit, then passes items on. */
    static final class Announcing extends Node<Integer, Integer> {
        @Override
        protected void svcInit() {
            sendOut(-1);
        }

        @Override
        protected Integer svc(Integer in) {
            return in;
        }
    }

    @Test
    void shouldDeliverItemsSentFromSvcInitFirst() {
        NodeTestSupport.verify(Announcing::new)
                .input(0, 1, 2)
                .expectOutput(-1, 0, 1, 2)
                .run();
    }

    @Test
    void shouldFailWhenSendOutIsCalledFromSvcEnd() {
        Node<Integer, Integer> lateSender = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            @Override
            protected void svcEnd() {
                sendOut(42);
            }
        };
        Sink<Integer> sink = new Sink<>();
        Pipeline pipe = new Pipeline(source(3), lateSender, sink);

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.phase()).isEqualTo("svcEnd");
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("svcEnd");
    }

    @Test
    void shouldRefuseSendOutOutsideARun() {
        var node = new Node<Integer, Integer>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            void sendNow() {
                sendOut(1);
            }
        };

        assertThatThrownBy(node::sendNow)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
    }

    @Test
    void shouldEndNodeWhenItSendsOutEos() {
        AtomicInteger calls = new AtomicInteger();
        RecordingStage after = new RecordingStage();
        Node<Integer, Integer> untilThree = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                calls.incrementAndGet();
                sendOut(in);
                if (in == 3) {
                    sendOut(eos());
                }
                return goOn();
            }
        };
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(100), untilThree, after, sink).runAndWaitEnd();

        assertThat(calls).hasValue(4);
        assertThat(sink.items).containsExactly(0, 1, 2, 3);
        assertThat(after.events).endsWith("eosNotify:-1", "svcEnd");
    }

    @Test
    void shouldEndSourceWhenItSendsOutEos() {
        Node<Void, Integer> source = new Node<>() {
            private int next;

            @Override
            protected Integer svc(Void none) {
                sendOut(next++);
                sendOut(next++);
                if (next >= 6) {
                    sendOut(eos());
                }
                return goOn();
            }
        };
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void shouldRefuseSendOutFromAnotherThreadNamingTheNode() {
        Node<Integer, Integer> leaky = new Node<>() {
            @Override
            protected Integer svc(Integer in) throws Exception {
                AtomicReference<Throwable> error = new AtomicReference<>();
                Thread helper = new Thread(
                        () -> {
                            try {
                                sendOut(in);
                            } catch (Throwable t) {
                                error.set(t);
                            }
                        },
                        "user-helper");
                helper.start();
                helper.join();
                throw (Exception) error.get();
            }
        };
        Pipeline pipe = new Pipeline(Node.source(List.of(1, 2)), leaky, Node.<Integer>sink(x -> {}));
        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.getCause())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ff-pipe1-stage1")
                .hasMessageContaining("user-helper");
    }
}
