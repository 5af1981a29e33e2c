package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.core.StreamFixtures.ints;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.StreamFixtures.Sink;
import org.fastflowj.core.testing.NodeTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A MultiOutputNode chooses its output channels: sendOutTo, broadcast, sendFeedbackTo. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiOutputNodeTest {

    /** An L-Worker source that sends key k to R-Worker k % outputChannels(). */
    static final class KeyRouter extends MultiOutputNode<Void, Integer> {
        private final int from;
        private final int to;
        volatile int outputsSeen = -1;
        volatile int feedbackSeen = -1;

        KeyRouter(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        protected Integer svc(Void none) {
            outputsSeen = outputChannels();
            feedbackSeen = feedbackChannels();
            for (int k = from; k < to; k++) {
                sendOutTo(k, k % outputChannels());
            }
            return eos();
        }
    }

    /** An R-Worker recording what it gets, together with its own id(). */
    static final class Recorder extends Node<Integer, Void> {
        final List<Integer> items = Collections.synchronizedList(new ArrayList<>());
        volatile int ownId = -1;

        @Override
        protected Void svc(Integer in) {
            ownId = id();
            items.add(in);
            return goOn();
        }
    }

    @Test
    void shouldDeliverSendOutToOnlyToTheChosenConsumer() {
        List<Recorder> rs = List.of(new Recorder(), new Recorder(), new Recorder());
        KeyRouter l0 = new KeyRouter(0, 500);
        KeyRouter l1 = new KeyRouter(500, 1000);
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(rs.get(0), rs.get(1), rs.get(2));

        a2a.runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        assertThat(l0.outputsSeen).isEqualTo(3);
        assertThat(l1.outputsSeen).isEqualTo(3);
        assertThat(l0.feedbackSeen).isZero();
        List<Integer> all = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            Recorder r = rs.get(j);
            assertThat(r.ownId).isEqualTo(j);
            final int rIndex = j;
            assertThat(r.items).as("R-Worker %d", j).allMatch(k -> k % 3 == rIndex);
            all.addAll(r.items);
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(ints(1000));
    }

    @Test
    void shouldKeepOrderPerChannelWithSendOutTo() {
        List<Integer> evens = new ArrayList<>();
        List<Integer> odds = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            (k % 2 == 0 ? evens : odds).add(k);
        }

        NodeTestSupport.verify(() -> new KeyRouter(0, 400))
                .outputChannels(2)
                .expectOutputOn(0, evens)
                .expectOutputOn(1, odds)
                .run();
    }

    /** A source that broadcasts 0..count-1, one item per call. */
    static final class Broadcaster extends MultiOutputNode<Void, Integer> {
        private final int count;
        private int next;

        Broadcaster(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            if (next == count) {
                return eos();
            }
            broadcast(next++);
            return goOn();
        }
    }

    @Test
    void shouldBroadcastToEveryConsumer() {
        NodeTestSupport.verify(() -> new Broadcaster(50))
                .outputChannels(3)
                .expectOutputOn(0, ints(50))
                .expectOutputOn(1, ints(50))
                .expectOutputOn(2, ints(50))
                .run();
    }

    /** Routes item x to output channel x % outputChannels(), by sendOutTo. */
    static final class ModuloRouter extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            sendOutTo(x, x % outputChannels());
            return goOn();
        }
    }

    @Test
    void shouldRouteEachInputItemToTheChosenChannel() {
        NodeTestSupport.verify(ModuloRouter::new)
                .input(ints(10))
                .outputChannels(3)
                .expectOutputOn(0, 0, 3, 6, 9)
                .expectOutputOn(1, 1, 4, 7)
                .expectOutputOn(2, 2, 5, 8)
                .run();
    }

    @Test
    void shouldRouteFromAFarmEmitterToChosenWorkers() {
        MultiOutputNode<Integer, Integer> emitter = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOutTo(in, in % outputChannels());
                return goOn();
            }
        };
        List<Recorder> workers = List.of(new Recorder(), new Recorder(), new Recorder(), new Recorder());
        Farm farm = Farm.of(workers.get(0), workers.get(1), workers.get(2), workers.get(3))
                .emitter(emitter);

        new Pipeline(StreamFixtures.source(200), farm).runAndWaitEnd();

        for (int w = 0; w < 4; w++) {
            final int index = w;
            assertThat(workers.get(w).items).hasSize(50).allMatch(k -> k % 4 == index);
        }
    }

    @Test
    void shouldFailNamingNodeAndChannelCountWhenSendOutToHasBadIndex() {
        MultiOutputNode<Void, Integer> wrong = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Void none) {
                sendOutTo(1, 5);
                return eos();
            }
        };
        AllToAll a2a = new AllToAll().firstSet(wrong).secondSet(new Recorder(), new Recorder(), new Recorder());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, a2a::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-a2a1-L0");
        assertThat(e.phase()).isEqualTo("svc");
        assertThat(e.getCause()).isNotNull();
        assertThat(e.getCause().getMessage())
                .contains("ff-a2a1-L0")
                .contains("5")
                .contains("3 forward output");
    }

    @Test
    void shouldFailWhenSendOutToHasNegativeIndex() {
        MultiOutputNode<Void, Integer> wrong = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Void none) {
                sendOutTo(1, -1);
                return eos();
            }
        };
        AllToAll a2a = new AllToAll().firstSet(wrong).secondSet(new Recorder(), new Recorder());

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, a2a::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.getCause().getMessage()).contains("ff-a2a1-L0").contains("2 forward output");
    }

    @Test
    void shouldSendReturnValueByDefaultPolicyAmongForwardOutputs() {
        MultiOutputNode<Void, Integer> plainReturn = new MultiOutputNode<>() {
            private int next;

            @Override
            protected Integer svc(Void none) {
                return next < 90 ? Integer.valueOf(next++) : eos();
            }
        };
        List<Recorder> rs = List.of(new Recorder(), new Recorder(), new Recorder());
        AllToAll a2a = new AllToAll().firstSet(plainReturn).secondSet(rs.get(0), rs.get(1), rs.get(2));

        a2a.runAndWaitEnd();

        List<Integer> all = new ArrayList<>();
        rs.forEach(r -> all.addAll(r.items));
        assertThat(all).containsExactlyInAnyOrderElementsOf(ints(90));
    }

    /** A task going round an all-to-all loop: who sent it, where it must come back. */
    record Task(int seq, int targetL, int viaR) {}

    /** An L-Worker heading the loop: L0 starts every task, each L counts what comes back to it. */
    static final class LoopL extends MultiInputNode<Task, Task> {
        private final int tasks;
        private final int expectedBack;
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> back = Collections.synchronizedList(new ArrayList<>());
        volatile int nullCalls;
        volatile int feedbackChannelsSeen = -1;

        LoopL(int tasks, int expectedBack) {
            this.tasks = tasks;
            this.expectedBack = expectedBack;
        }

        @Override
        protected Task svc(Task in) {
            if (in == null) {
                nullCalls++;
                for (int s = 0; id() == 0 && s < tasks; s++) {
                    sendOut(new Task(s, s % 2, -1));
                }
                return expectedBack == 0 ? eos() : goOn();
            }
            feedbackChannelsSeen = feedbackChannels();
            if (!fromFeedback()) {
                violations.add("item not flagged as feedback: " + in);
            }
            if (inputChannel() != in.viaR()) {
                violations.add("inputChannel() " + inputChannel() + " for an item sent by R" + in.viaR());
            }
            if (in.targetL() != id()) {
                violations.add("L" + id() + " got " + in);
            }
            back.add(in.seq());
            return back.size() == expectedBack ? eos() : goOn();
        }
    }

    /** An R-Worker sending every task back to the L-Worker it names. */
    static final class LoopR extends MultiOutputNode<Task, Task> {
        volatile int forwardOutputs = -1;
        volatile int feedbackOutputs = -1;

        @Override
        protected Task svc(Task in) {
            forwardOutputs = outputChannels();
            feedbackOutputs = feedbackChannels();
            sendFeedbackTo(new Task(in.seq(), in.targetL(), id()), in.targetL());
            return goOn();
        }
    }

    @Test
    void shouldSendFeedbackToTheChosenLWorkerWithItsOwnNumbering() {
        int tasks = 60;
        LoopL l0 = new LoopL(tasks, tasks / 2);
        LoopL l1 = new LoopL(0, tasks / 2);
        List<LoopR> rs = List.of(new LoopR(), new LoopR(), new LoopR());
        AllToAll loop = new AllToAll()
                .firstSet(l0, l1)
                .secondSet(rs.get(0), rs.get(1), rs.get(2))
                .wrapAround();

        loop.runAndWaitEnd();

        assertThat(l0.violations).isEmpty();
        assertThat(l1.violations).isEmpty();
        assertThat(l0.nullCalls).isEqualTo(1);
        assertThat(l1.nullCalls).isEqualTo(1);
        List<Integer> evens = new ArrayList<>();
        List<Integer> odds = new ArrayList<>();
        for (int s = 0; s < tasks; s++) {
            (s % 2 == 0 ? evens : odds).add(s);
        }
        assertThat(l0.back).containsExactlyInAnyOrderElementsOf(evens);
        assertThat(l1.back).containsExactlyInAnyOrderElementsOf(odds);
        assertThat(l0.feedbackChannelsSeen).isEqualTo(3);
        for (LoopR r : rs) {
            assertThat(r.forwardOutputs).isZero();
            assertThat(r.feedbackOutputs).isEqualTo(2);
        }
    }

    /** A task of the loop below: which L-Worker started it, how many laps it made, who sent it last. */
    record Lap(int origin, int seq, int laps, int viaR) {}

    @Test
    void shouldNumberForwardAndFeedbackOutputsSeparatelyWhenALoopFeedsANextStage() {
        int perL = 40;
        int laps = 3;
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        class Head extends MultiInputNode<Lap, Lap> {
            private int finished;

            @Override
            protected Lap svc(Lap in) {
                if (in == null) {
                    for (int s = 0; s < perL; s++) {
                        sendOut(new Lap(id(), s, 0, -1));
                    }
                    return goOn();
                }
                if (!fromFeedback() || inputChannel() != in.viaR() || in.origin() != id()) {
                    violations.add("L" + id() + " got " + in + " on channel " + inputChannel());
                }
                sendOut(in);
                // a task on its last lap leaves the loop at the R-Worker: this head is done with it
                return in.laps() == laps && ++finished == perL ? eos() : goOn();
            }
        }
        class Router extends MultiOutputNode<Lap, Lap> {
            @Override
            protected Lap svc(Lap in) {
                if (outputChannels() != 1 || feedbackChannels() != 2) {
                    violations.add("R" + id() + " has " + outputChannels() + "/" + feedbackChannels() + " outputs");
                }
                if (in.laps() < laps) {
                    sendFeedbackTo(new Lap(in.origin(), in.seq(), in.laps() + 1, id()), in.origin());
                } else {
                    sendOutTo(in, 0);
                }
                return goOn();
            }
        }
        Sink<Lap> sink = new Sink<>();
        AllToAll loop = new AllToAll()
                .firstSet(new Head(), new Head())
                .secondSet(new Router(), new Router(), new Router())
                .wrapAround();

        new Pipeline(loop, sink).runAndWaitEnd();

        assertThat(violations).isEmpty();
        assertThat(sink.items).hasSize(2 * perL).allMatch(l -> l.laps() == laps);
        List<String> done = new ArrayList<>();
        sink.items.forEach(l -> done.add(l.origin() + ":" + l.seq()));
        List<String> expected = new ArrayList<>();
        for (int o = 0; o < 2; o++) {
            for (int s = 0; s < perL; s++) {
                expected.add(o + ":" + s);
            }
        }
        assertThat(done).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(sink.eosChannels).containsExactly(-1);
    }

    @Test
    void shouldFailWhenSendFeedbackToHasBadIndex() {
        MultiOutputNode<Integer, Integer> r = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                sendFeedbackTo(in, 7);
                return goOn();
            }
        };
        MultiInputNode<Integer, Integer> l = new MultiInputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                if (in == null) {
                    sendOut(1);
                }
                return goOn();
            }
        };
        AllToAll loop = new AllToAll().firstSet(l).secondSet(r).wrapAround();

        NodeFailedException e = catchThrowableOfType(NodeFailedException.class, loop::runAndWaitEnd);

        assertThat(e).isNotNull();
        assertThat(e.nodeName()).isEqualTo("ff-a2a1-R0");
        assertThat(e.getCause().getMessage())
                .contains("ff-a2a1-R0")
                .contains("7")
                .contains("1 feedback output");
    }

    @Test
    void shouldHaveOneOutputChannelPerLWorkerOfTheNextAllToAll() {
        // a MultiOutputNode stage before an all-to-all of 2 L-Workers has one output per L-Worker
        List<Integer> counts = Collections.synchronizedList(new ArrayList<>());
        MultiOutputNode<Integer, Integer> splitter = new MultiOutputNode<>() {
            @Override
            protected Integer svc(Integer in) {
                counts.add(outputChannels());
                sendOutTo(in, in % 2);
                return goOn();
            }
        };
        List<Recorder> ls = List.of(new Recorder(), new Recorder());
        AllToAll a2a = new AllToAll().firstSet(ls.get(0), ls.get(1)).secondSet(new Sink<Void>());

        new Pipeline(StreamFixtures.source(10), splitter, a2a).runAndWaitEnd();

        assertThat(counts).hasSize(10).containsOnly(2);
        assertThat(ls.get(0).items).containsExactly(0, 2, 4, 6, 8);
        assertThat(ls.get(1).items).containsExactly(1, 3, 5, 7, 9);
    }
}
