package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.assertj.core.api.SoftAssertions;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Combiner.of(first, second): two nodes fused into one thread, composed like functions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CombinerTest {

    /**
     * A stage logging its life cycle into a shared event list under a name; maps items with {@code f},
     * drops those {@code drop} matches, and ends (eos) on the item {@code endAt}.
     */
    static final class Step extends Node<Integer, Integer> {
        private final String name;
        private final List<String> log;
        private final IntUnaryOperator f;
        private IntPredicate drop = x -> false;
        private int endAt = Integer.MIN_VALUE;
        private Integer sendFromEosNotify;
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        Step(String name, List<String> log, IntUnaryOperator f) {
            this.name = name;
            this.log = log;
            this.f = f;
        }

        Step dropping(IntPredicate predicate) {
            this.drop = predicate;
            return this;
        }

        Step endingAt(int item) {
            this.endAt = item;
            return this;
        }

        Step sendingFromEosNotify(int item) {
            this.sendFromEosNotify = item;
            return this;
        }

        @Override
        protected void svcInit() {
            threads.add(Thread.currentThread().getName());
            log.add(name + ".svcInit");
        }

        @Override
        protected Integer svc(Integer in) {
            threads.add(Thread.currentThread().getName());
            log.add(name + ".svc:" + in);
            if (in == endAt) {
                return eos();
            }
            return drop.test(in) ? goOn() : Integer.valueOf(f.applyAsInt(in));
        }

        @Override
        protected void eosNotify(int channel) {
            log.add(name + ".eosNotify:" + channel);
            if (sendFromEosNotify != null) {
                sendOut(sendFromEosNotify);
            }
        }

        @Override
        protected void svcEnd() {
            threads.add(Thread.currentThread().getName());
            log.add(name + ".svcEnd");
        }
    }

    private static List<String> newLog() {
        return Collections.synchronizedList(new ArrayList<>());
    }

    private static List<String> only(List<String> log, String prefix) {
        List<String> out = new ArrayList<>();
        synchronized (log) {
            for (String s : log) {
                if (s.startsWith(prefix)) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    @Test
    void shouldRunBothNodesOnOneThread() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x);
        Step b = new Step("b", log, x -> x);

        new Pipeline(source(20), Combiner.of(a, b), new Sink<Integer>()).runAndWaitEnd();

        assertThat(a.threads).containsExactly("ff-pipe1-stage1");
        assertThat(b.threads).containsExactly("ff-pipe1-stage1");
    }

    @Test
    void shouldComposeFirstThenSecond() {
        List<String> log = newLog();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(5), Combiner.of(new Step("a", log, x -> x + 1), new Step("b", log, x -> x * 10)), sink)
                .runAndWaitEnd();

        assertThat(sink.items).containsExactly(10, 20, 30, 40, 50);
    }

    @Test
    void shouldNotCallSecondWhenFirstReturnsGoOn() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x).dropping(x -> x % 3 != 0);
        Step b = new Step("b", log, x -> x);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(10), Combiner.of(a, b), sink).runAndWaitEnd();

        assertThat(only(log, "b.svc:")).containsExactly("b.svc:0", "b.svc:3", "b.svc:6", "b.svc:9");
        assertThat(sink.items).containsExactly(0, 3, 6, 9);
    }

    @Test
    void shouldFeedEverySendOutOfFirstIntoSecond() {
        Node<Integer, Integer> twice = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOut(in);
                sendOut(in + 100);
                return goOn();
            }
        };
        List<String> log = newLog();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(3), Combiner.of(twice, new Step("b", log, x -> -x)), sink).runAndWaitEnd();

        assertThat(only(log, "b.svc:"))
                .containsExactly("b.svc:0", "b.svc:100", "b.svc:1", "b.svc:101", "b.svc:2", "b.svc:102");
        assertThat(sink.items).containsExactly(0, -100, -1, -101, -2, -102);
    }

    @Test
    void shouldNotifySecondAndEndWhenFirstReturnsEos() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x).endingAt(4);
        Step b = new Step("b", log, x -> x);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(StreamFixtures.infiniteSource(), Combiner.of(a, b), sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(8));

        assertThat(only(log, "b."))
                .containsExactly("b.svcInit", "b.svc:0", "b.svc:1", "b.svc:2", "b.svc:3", "b.eosNotify:-1", "b.svcEnd");
        assertThat(only(log, "a.svc:")).hasSize(5);
        assertThat(sink.items).containsExactly(0, 1, 2, 3);
        assertThat(sink.eosChannels).containsExactly(-1);
    }

    @Test
    void shouldNotifySecondAndEndWhenFirstSendsOutEos() {
        Node<Integer, Integer> firstThree = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOut(in);
                if (in == 2) {
                    sendOut(eos());
                }
                return goOn();
            }
        };
        List<String> log = newLog();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(50), Combiner.of(firstThree, new Step("b", log, x -> x)), sink).runAndWaitEnd();

        assertThat(log).containsExactly("b.svcInit", "b.svc:0", "b.svc:1", "b.svc:2", "b.eosNotify:-1", "b.svcEnd");
        assertThat(sink.items).containsExactly(0, 1, 2);
    }

    @Test
    void shouldEndWhenSecondReturnsEos() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x);
        Step b = new Step("b", log, x -> x).endingAt(2);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(StreamFixtures.infiniteSource(), Combiner.of(a, b), sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(8));

        assertThat(only(log, "a.svc:")).containsExactly("a.svc:0", "a.svc:1", "a.svc:2");
        assertThat(sink.items).containsExactly(0, 1);
        assertThat(log).endsWith("a.svcEnd", "b.svcEnd");
    }

    @Test
    void shouldNotCallSecondAgainAfterItReturnedEosWithinOneCallOfFirst() {
        Node<Integer, Integer> burst = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                for (int i = 0; i < 5; i++) {
                    sendOut(in * 10 + i);
                }
                return goOn();
            }
        };
        List<String> log = newLog();
        Step second = new Step("b", log, x -> x).endingAt(1); // ends on the second item of the burst
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(3), Combiner.of(burst, second), sink).runAndWaitEnd();

        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(only(log, "b.svc:"))
                    .as("svc is not called after it returned eos()")
                    .containsExactly("b.svc:0", "b.svc:1");
            soft.assertThat(sink.items)
                    .as("nothing leaves the combiner after its second node ended")
                    .containsExactly(0);
        });
    }

    @Test
    void shouldReportEosNotifyPhaseWhenSecondFailsInEosNotifyAfterFirstReturnedEos() {
        IllegalStateException error = new IllegalStateException("second fails in eosNotify");
        List<String> log = newLog();
        Step first = new Step("a", log, x -> x).endingAt(3);
        Node<Integer, Integer> second = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            @Override
            protected void eosNotify(int channel) {
                throw error;
            }
        };
        Pipeline pipe = new Pipeline(source(10), Combiner.of(first, second), new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.getCause()).isSameAs(error);
        assertThat(e.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(e.phase()).as("the method that threw").isEqualTo("eosNotify");
    }

    @Test
    void shouldRunSecondsSvcInitBeforeItGetsAnItemSentFromFirstsSvcInit() {
        List<String> log = newLog();
        Node<Integer, Integer> announcing = new Node<>() {
            @Override
            protected void svcInit() {
                log.add("a.svcInit");
                sendOut(-1); // sendOut is allowed in svcInit
            }

            @Override
            protected Integer svc(Integer in) {
                return in;
            }
        };
        Step second = new Step("b", log, x -> x);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(2), Combiner.of(announcing, second), sink).runAndWaitEnd();

        assertThat(log)
                .as("svcInit once before the first svc, for the second node too")
                .containsExactly(
                        "a.svcInit", "b.svcInit", "b.svc:-1", "b.svc:0", "b.svc:1", "b.eosNotify:-1", "b.svcEnd");
        assertThat(sink.items).containsExactly(-1, 0, 1);
    }

    @Test
    void shouldRejectSendOutFromFirstsSvcEndLikeAPlainNodeDoes() {
        Node<Integer, Integer> lateSender = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }

            @Override
            protected void svcEnd() {
                sendOut(42); // too late: the combiner's EOS has gone out
            }
        };
        List<String> log = newLog();
        Step second = new Step("b", log, x -> x).dropping(x -> x == 42);
        Pipeline pipe = new Pipeline(source(3), Combiner.of(lateSender, second), new Sink<Integer>());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(e)
                    .as("sendOut from svcEnd is an error, not a silent drop")
                    .isNotNull();
            if (e != null) {
                soft.assertThat(e.phase()).isEqualTo("svcEnd");
                soft.assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
            }
            soft.assertThat(log)
                    .as("the second node's svc is never called after its eosNotify")
                    .containsExactly("b.svcInit", "b.svc:0", "b.svc:1", "b.svc:2", "b.eosNotify:-1", "b.svcEnd");
        });
    }

    @Test
    void shouldGiveBothCombinedNodesTheCombinersId() {
        List<Integer> ids = Collections.synchronizedList(new ArrayList<>());
        class IdProbe extends Node<Integer, Integer> {
            @Override
            protected void svcInit() {
                ids.add(id());
            }

            @Override
            protected Integer svc(Integer in) {
                return in;
            }
        }
        Farm farm = Farm.of(new IdProbe(), new IdProbe(), Combiner.of(new IdProbe(), new IdProbe()));

        new Pipeline(source(6), farm, new Sink<Integer>()).runAndWaitEnd();

        assertThat(ids).containsExactlyInAnyOrder(0, 1, 2, 2);
    }

    @Test
    void shouldNotifyFirstThenSecondWhenInputEndsAndDeliverFirstsEosNotifyOutputToSecond() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x).sendingFromEosNotify(999);
        Step b = new Step("b", log, x -> x).sendingFromEosNotify(-7);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(2), Combiner.of(a, b), sink).runAndWaitEnd();

        assertThat(log)
                .containsExactly(
                        "a.svcInit",
                        "b.svcInit",
                        "a.svc:0",
                        "b.svc:0",
                        "a.svc:1",
                        "b.svc:1",
                        "a.eosNotify:-1",
                        "b.svc:999",
                        "b.eosNotify:-1",
                        "a.svcEnd",
                        "b.svcEnd");
        assertThat(sink.items).containsExactly(0, 1, 999, -7);
    }

    @Test
    void shouldComposeNestedCombinersInOrderOnOneThread() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x + 1);
        Step b = new Step("b", log, x -> x * 2);
        Step c = new Step("c", log, x -> x - 3);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(4), Combiner.of(Combiner.of(a, b), c), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(-1, 1, 3, 5);
        assertThat(only(log, "a.svcInit")).hasSize(1);
        assertThat(log.subList(0, 3)).containsExactly("a.svcInit", "b.svcInit", "c.svcInit");
        assertThat(log).endsWith("a.svcEnd", "b.svcEnd", "c.svcEnd");
        assertThat(a.threads).isEqualTo(c.threads).containsExactly("ff-pipe1-stage1");
    }

    @Test
    void shouldComposeCombinerAsSecondOfACombiner() {
        List<String> log = newLog();
        Sink<Integer> sink = new Sink<>();

        new Pipeline(
                        source(3),
                        Combiner.of(
                                new Step("a", log, x -> x + 1),
                                Combiner.of(new Step("b", log, x -> x * 2), new Step("c", log, x -> x - 3))),
                        sink)
                .runAndWaitEnd();

        assertThat(sink.items).containsExactly(-1, 1, 3);
        assertThat(only(log, "c.eosNotify")).containsExactly("c.eosNotify:-1");
    }

    @Test
    void shouldStopAtAnInnerGoOnAndEndAtAnInnerEosWhenCombinersAreBothParts() {
        List<String> log = newLog();
        Step a = new Step("a", log, x -> x).dropping(x -> x % 2 == 1);
        Step b = new Step("b", log, x -> x * 10);
        Step c = new Step("c", log, x -> x).endingAt(40);
        Step d = new Step("d", log, x -> x + 1);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(10), Combiner.of(Combiner.of(a, b), Combiner.of(c, d)), sink).runAndWaitEnd();

        assertThat(only(log, "a.svc:")).as("the combiner ends on item 4").hasSize(5);
        assertThat(only(log, "b.svc:")).as("odd items stop at a").containsExactly("b.svc:0", "b.svc:2", "b.svc:4");
        assertThat(only(log, "d."))
                .as("c's eos() tells d once and ends the whole combiner")
                .containsExactly("d.svcInit", "d.svc:0", "d.svc:20", "d.eosNotify:-1", "d.svcEnd");
        assertThat(sink.items).containsExactly(1, 21);
    }

    @Test
    void shouldNameTheInnerNodeWhoseSvcReturnsABareNull() {
        Node<Integer, Integer> broken = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in == 2 ? null : in;
            }

            @Override
            public String toString() {
                return "node broken-middle";
            }
        };
        List<String> log = newLog();
        Combiner<Integer, Integer> fused =
                Combiner.of(Combiner.of(new Step("a", log, x -> x), broken), new Step("c", log, x -> x));

        assertThatThrownBy(() -> new Pipeline(source(5), fused, new Sink<Integer>()).runAndWaitEnd())
                .isInstanceOf(NodeFailedException.class)
                .hasCauseInstanceOf(NullPointerException.class)
                .hasMessageContaining("node broken-middle: svc returned null");
        assertThat(only(log, "c.svc:")).containsExactly("c.svc:0", "c.svc:1");
    }

    @Test
    void shouldLetMultiInputFirstSeeItsInputChannels() {
        List<int[]> channelAndProducer = Collections.synchronizedList(new ArrayList<>());
        List<Integer> eosChannels = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<int[], Integer> tagReader = new MultiInputNode<>() {
            @Override
            protected Integer svc(int[] in) {
                channelAndProducer.add(new int[] {inputChannel(), in[0]});
                return in[1];
            }

            @Override
            protected void eosNotify(int channel) {
                eosChannels.add(channel);
            }
        };
        class Producer extends Node<Void, int[]> {
            private int next;

            @Override
            protected int[] svc(Void none) {
                return next < 20 ? new int[] {id(), next++} : eos();
            }
        }
        List<String> log = newLog();
        Step second = new Step("b", log, x -> x);
        Sink<Integer> sink = new Sink<>();

        new Pipeline(Farm.of(3, Producer::new), Combiner.of(tagReader, second), sink).runAndWaitEnd();

        assertThat(channelAndProducer).hasSize(60).allMatch(p -> p[0] == p[1]);
        assertThat(eosChannels).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(only(log, "b.eosNotify")).containsExactly("b.eosNotify:-1");
        assertThat(sink.items).hasSize(60);
    }

    @Test
    void shouldLetMultiInputFirstSeeFeedbackWhenTheCombinerHeadsALoop() {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<Integer, Integer> head = new MultiInputNode<>() {
            private int back;

            @Override
            protected Integer svc(Integer in) {
                if (in == null) {
                    for (int i = 0; i < 10; i++) {
                        sendOut(i);
                    }
                    return goOn();
                }
                seen.add(fromFeedback() + ":" + inputChannel() + ":" + feedbackChannels());
                return ++back == 10 ? eos() : goOn();
            }
        };
        List<String> log = newLog();
        Step second = new Step("b", log, x -> x + 100);

        new Pipeline(Combiner.of(head, second), Node.of((Integer x) -> x))
                .wrapAround()
                .runAndWaitEnd();

        assertThat(seen).hasSize(10).containsOnly("true:0:1");
        assertThat(only(log, "b.svc:")).hasSize(10);
        assertThat(only(log, "b.eosNotify")).containsExactly("b.eosNotify:-1");
    }

    @Test
    void shouldLetMultiOutputSecondChooseTheChannel() {
        MultiOutputNode<Integer, Integer> router = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOutTo(in, in % outputChannels());
                return goOn();
            }
        };
        class LRecorder extends Node<Integer, Integer> {
            final List<Integer> got = Collections.synchronizedList(new ArrayList<>());

            @Override
            protected Integer svc(Integer in) {
                got.add(in);
                return goOn();
            }
        }
        List<LRecorder> ls = List.of(new LRecorder(), new LRecorder(), new LRecorder());
        AllToAll a2a = new AllToAll().firstSet(ls.get(0), ls.get(1), ls.get(2)).secondSet(new Sink<Integer>());

        new Pipeline(source(30), Combiner.of(Node.of((Integer x) -> x * 2), router), a2a).runAndWaitEnd();

        for (int i = 0; i < 3; i++) {
            final int index = i;
            assertThat(ls.get(i).got).hasSize(10).allMatch(x -> x % 3 == index && x % 2 == 0);
        }
    }

    @Test
    void shouldRejectMultiOutputFirstNamingTheRule() {
        MultiOutputNode<Integer, Integer> multiOut = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }
        };

        assertThatThrownBy(() -> Combiner.of(multiOut, Node.of((Integer x) -> x)))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("first node is multi-output");
    }

    @Test
    void shouldLetAMultiInputSecondSeeTheEnteringChannelAndOneEosNotify() {
        // As FastFlow's ff_comb of two ff_minode: the second sees the channel the item entered by.
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<Integer, Integer> first = new MultiInputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                return in;
            }
        };
        MultiInputNode<Integer, Integer> second = new MultiInputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                seen.add(in + "@" + inputChannel());
                return goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                seen.add("eos" + channel);
            }
        };
        var a2a = new AllToAll()
                .firstSet(Node.source(List.of(10)), Node.source(List.of(20)))
                .secondSet(Combiner.of(first, second));
        new Pipeline(a2a).runAndWaitEnd();

        assertThat(seen).containsExactlyInAnyOrder("10@0", "20@1", "eos0");
        assertThat(seen.get(seen.size() - 1)).isEqualTo("eos0");
    }

    @Test
    void shouldWorkAsFarmWorker() {
        List<String> log = newLog();
        List<Step> firsts = new ArrayList<>();
        Farm farm = Farm.of(3, () -> {
            Step a = new Step("a", log, x -> x + 1);
            firsts.add(a);
            return Combiner.of(a, new Step("b", log, x -> x * 2));
        });
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(100), farm, sink).runAndWaitEnd();

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add((i + 1) * 2);
        }
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(expected);
        for (int w = 0; w < 3; w++) {
            assertThat(firsts.get(w).threads).containsExactly("ff-farm1-worker" + w);
        }
    }

    @Test
    void shouldWorkAsAllToAllMembers() {
        class Tagger extends Node<Integer, int[]> {
            @Override
            protected int[] svc(Integer in) {
                return new int[] {id(), in};
            }
        }
        List<int[]> seen = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<int[], int[]> check = new MultiInputNode<>() {
            @Override
            protected int[] svc(int[] in) {
                return new int[] {inputChannel(), in[0], in[1]};
            }
        };
        class RSink extends Node<int[], Void> {
            @Override
            protected Void svc(int[] in) {
                seen.add(in);
                return goOn();
            }
        }
        // L-Workers: a source fused with a tagger; R-Workers: a multi-input check fused with a sink
        AllToAll a2a = new AllToAll()
                .firstSet(Combiner.of(source(40), new Tagger()), Combiner.of(source(40), new Tagger()))
                .secondSet(Combiner.of(check, new RSink()));

        a2a.runAndWaitEnd();

        assertThat(seen).hasSize(80).allMatch(t -> t[0] == t[1]);
        List<Integer> values = new ArrayList<>();
        seen.forEach(t -> values.add(t[2]));
        List<Integer> expected = new ArrayList<>(ints(40));
        expected.addAll(ints(40));
        assertThat(values).containsExactlyInAnyOrderElementsOf(expected);
    }
}
