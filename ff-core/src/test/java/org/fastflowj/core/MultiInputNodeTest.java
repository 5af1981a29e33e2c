package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.StreamFixtures.Sink;
import org.fastflowj.core.testing.NodeTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A MultiInputNode sees which channel each item came from and an end per channel. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiInputNodeTest {

    /** An item tagged with the id of the node that produced it. */
    record Tagged(int producer, int seq) {}

    /** A source that emits {@code count} items tagged with its own id(); optionally slow. */
    static final class TaggingSource extends Node<Void, Tagged> {
        private final int count;
        private final long sleepMillis;
        private int next;

        TaggingSource(int count, long sleepMillis) {
            this.count = count;
            this.sleepMillis = sleepMillis;
        }

        @Override
        protected Tagged svc(Void none) throws InterruptedException {
            if (next == count) {
                return eos();
            }
            if (sleepMillis > 0) {
                Thread.sleep(sleepMillis); // a slow source is the behaviour under test
            }
            return new Tagged(id(), next++);
        }
    }

    /** Records the channel of every item next to its tag, and every eosNotify. */
    static final class ChannelRecorder extends MultiInputNode<Tagged, Void> {
        final List<int[]> channelAndTag = Collections.synchronizedList(new ArrayList<>());
        final Map<Integer, List<Integer>> seqByChannel = Collections.synchronizedMap(new TreeMap<>());
        final List<Integer> eosChannels = Collections.synchronizedList(new ArrayList<>());
        final List<Boolean> feedbackFlags = Collections.synchronizedList(new ArrayList<>());
        volatile int channelsAtInit = -1;
        volatile int channelsInSvc = -1;
        volatile int eosSeenAtSvcEnd = -1;
        volatile int svcEndCalls;

        @Override
        protected void svcInit() {
            channelsAtInit = inputChannels();
        }

        @Override
        protected Void svc(Tagged item) {
            channelsInSvc = inputChannels();
            channelAndTag.add(new int[] {inputChannel(), item.producer()});
            feedbackFlags.add(fromFeedback());
            seqByChannel.computeIfAbsent(inputChannel(), k -> new ArrayList<>()).add(item.seq());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosChannels.add(channel);
        }

        @Override
        protected void svcEnd() {
            eosSeenAtSvcEnd = eosChannels.size();
            svcEndCalls++;
        }
    }

    private static void assertEveryItemCameFromItsTaggedChannel(
            ChannelRecorder recorder, int producers, int perProducer) {
        assertThat(recorder.channelAndTag).hasSize(producers * perProducer);
        for (int[] pair : recorder.channelAndTag) {
            assertThat(pair[0])
                    .as("inputChannel() of an item tagged by producer %d", pair[1])
                    .isEqualTo(pair[1]);
        }
        assertThat(recorder.seqByChannel).hasSize(producers);
        for (int ch = 0; ch < producers; ch++) {
            assertThat(recorder.seqByChannel.get(ch))
                    .as("items of channel %d, in order", ch)
                    .containsExactlyElementsOf(ints(perProducer));
        }
        assertThat(recorder.feedbackFlags).containsOnly(false);
        assertThat(recorder.channelsAtInit).isEqualTo(producers);
        assertThat(recorder.channelsInSvc).isEqualTo(producers);
        assertThat(recorder.eosChannels).containsExactlyInAnyOrderElementsOf(ints(producers));
        assertThat(recorder.svcEndCalls).isEqualTo(1);
        assertThat(recorder.eosSeenAtSvcEnd)
                .as("svcEnd runs after every channel ended")
                .isEqualTo(producers);
    }

    @Test
    void shouldReportTheFarmWorkerAsInputChannel() {
        int perWorker = 200;
        NodeTestSupport<Tagged, Void, ChannelRecorder> harness = NodeTestSupport.verify(ChannelRecorder::new);
        for (int worker = 0; worker < 3; worker++) {
            List<Tagged> items = new ArrayList<>();
            for (int seq = 0; seq < perWorker; seq++) {
                items.add(new Tagged(worker, seq));
            }
            harness.input(items); // fed by a farm of three source workers: channel k is worker k
        }

        harness.expectNoOutput()
                .assertNode(recorder -> assertEveryItemCameFromItsTaggedChannel(recorder, 3, perWorker))
                .run();
    }

    /** Passes each item on, tagged with the input channel it came from. */
    static final class ChannelTagger extends MultiInputNode<Integer, Tagged> {
        @Override
        protected Tagged svc(Integer seq) {
            return new Tagged(inputChannel(), seq);
        }
    }

    @Test
    void shouldTagEachItemWithTheChannelItCameFrom() {
        NodeTestSupport.verify(ChannelTagger::new)
                .input(0, 1)
                .input(0, 1, 2)
                .expectOutputInAnyOrder(
                        new Tagged(0, 0), new Tagged(0, 1), new Tagged(1, 0), new Tagged(1, 1), new Tagged(1, 2))
                .run();
    }

    @Test
    void shouldReportTheLWorkerAsInputChannelOfEachRWorker() {
        int perL = 300;
        List<ChannelRecorder> rWorkers = List.of(new ChannelRecorder(), new ChannelRecorder());
        AllToAll a2a = new AllToAll()
                .firstSet(new TaggingSource(perL, 0), new TaggingSource(perL, 0), new TaggingSource(perL, 0))
                .secondSet(rWorkers.get(0), rWorkers.get(1));

        a2a.runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        int total = 0;
        for (ChannelRecorder r : rWorkers) {
            for (int[] pair : r.channelAndTag) {
                assertThat(pair[0])
                        .as("R-Worker's inputChannel() for an item of L-Worker %d", pair[1])
                        .isEqualTo(pair[1]);
            }
            total += r.channelAndTag.size();
            assertThat(r.channelsInSvc).isEqualTo(3);
            assertThat(r.eosChannels).containsExactlyInAnyOrder(0, 1, 2);
            assertThat(r.svcEndCalls).isEqualTo(1);
            assertThat(r.eosSeenAtSvcEnd).isEqualTo(3);
        }
        assertThat(total).isEqualTo(3 * perL);
    }

    @Test
    void shouldSeeAllChannelsOfAnAllToAllBeforeIt() {
        int perL = 100;
        AllToAll a2a = new AllToAll()
                .firstSet(new TaggingSource(perL, 0), new TaggingSource(perL, 0), new TaggingSource(perL, 0))
                .secondSet(Node.of((Tagged t) -> t), Node.of((Tagged t) -> t));
        ChannelRecorder recorder = new ChannelRecorder();

        new Pipeline(a2a, recorder).runAndWaitEnd();

        // after an all-to-all the node's channels are the R-Workers
        assertThat(recorder.channelAndTag).hasSize(3 * perL);
        assertThat(recorder.channelsInSvc).isEqualTo(2);
        assertThat(recorder.eosChannels).containsExactlyInAnyOrder(0, 1);
        assertThat(recorder.eosSeenAtSvcEnd).isEqualTo(2);
    }

    @Test
    void shouldEndMultiInputNodeOnlyAfterTheSlowestChannelEnded() {
        Farm sources = Farm.of(new TaggingSource(50, 0), new TaggingSource(5, 5), new TaggingSource(50, 0));
        ChannelRecorder recorder = new ChannelRecorder();

        new Pipeline(sources, recorder).runAndWaitEnd();

        assertThat(recorder.seqByChannel.get(0)).containsExactlyElementsOf(ints(50));
        assertThat(recorder.seqByChannel.get(1)).containsExactlyElementsOf(ints(5));
        assertThat(recorder.seqByChannel.get(2)).containsExactlyElementsOf(ints(50));
        assertThat(recorder.eosChannels).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(recorder.eosSeenAtSvcEnd).isEqualTo(3);
    }

    @Test
    void shouldNotifyPlainNodeOnceAfterAllProducersEnded() {
        Farm sources = Farm.of(new TaggingSource(40, 0), new TaggingSource(8, 3), new TaggingSource(40, 0));
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Node<Tagged, Void> plain = new Node<>() {
            private int items;

            @Override
            protected Void svc(Tagged item) {
                items++;
                return goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                events.add("eosNotify:" + channel + " after " + items + " items");
            }

            @Override
            protected void svcEnd() {
                events.add("svcEnd");
            }
        };

        new Pipeline(sources, plain).runAndWaitEnd();

        assertThat(events).containsExactly("eosNotify:-1 after 88 items", "svcEnd");
    }

    /**
     * A loop head with a forward input: forwards stream items into the loop, counts those that come back,
     * and ends once its input ended and everything came back.
     */
    static final class LoopHead extends MultiInputNode<Integer, Integer> {
        final List<String> seen = Collections.synchronizedList(new ArrayList<>());
        volatile int feedbackChannelsSeen = -1;
        volatile int forwardChannelsSeen = -1;
        private int outstanding;
        private boolean inputEnded;

        @Override
        protected Integer svc(Integer in) {
            feedbackChannelsSeen = feedbackChannels();
            forwardChannelsSeen = inputChannels();
            seen.add((fromFeedback() ? "feedback" : "forward") + ":" + inputChannel() + ":" + in);
            if (!fromFeedback()) {
                outstanding++;
                return in;
            }
            outstanding--;
            return inputEnded && outstanding == 0 ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            seen.add("eosNotify:" + channel);
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos());
            }
        }
    }

    @Test
    void shouldFlagOnlyFeedbackItemsAsFromFeedback() {
        LoopHead head = new LoopHead();
        Node<Integer, Integer> back = Node.of((Integer x) -> x + 1000);

        new Pipeline(source(20), new Pipeline(head, back).wrapAround()).runAndWaitEnd();

        List<String> forward = new ArrayList<>();
        List<String> feedback = new ArrayList<>();
        for (String s : head.seen) {
            if (s.startsWith("forward")) {
                forward.add(s);
            } else if (s.startsWith("feedback")) {
                feedback.add(s);
            }
        }
        List<String> expectedForward = new ArrayList<>();
        List<String> expectedFeedback = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expectedForward.add("forward:0:" + i);
            expectedFeedback.add("feedback:0:" + (i + 1000));
        }
        assertThat(forward).containsExactlyElementsOf(expectedForward);
        assertThat(feedback).containsExactlyInAnyOrderElementsOf(expectedFeedback);
        assertThat(head.seen)
                .filteredOn(x -> x.startsWith("eosNotify"))
                .as("EOS of the forward channel only, never of the feedback one")
                .containsExactly("eosNotify:0");
        assertThat(head.forwardChannelsSeen).isEqualTo(1);
        assertThat(head.feedbackChannelsSeen).isEqualTo(1);
    }

    @Test
    void shouldCountFeedbackChannelsSeparatelyFromForwardChannels() {
        // a farm without collector wrapped around: each worker feeds back to the emitter on its own channel
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<Integer, Integer> emitter = new MultiInputNode<>() {
            private int back;

            @Override
            protected Integer svc(Integer in) {
                if (in == null) {
                    for (int i = 0; i < 30; i++) {
                        sendOut(i);
                    }
                    return goOn();
                }
                seen.add(fromFeedback() + ":" + inputChannels() + ":" + feedbackChannels());
                return ++back == 30 ? eos() : goOn();
            }
        };
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x)).emitter(emitter).wrapAround();

        farm.runAndWaitEnd();

        assertThat(seen).hasSize(30).containsOnly("true:0:3");
    }

    @Test
    void shouldGiveFeedbackChannelIndexOfTheWorkerThatSentIt() {
        List<int[]> channelAndWorker = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<int[], Integer> emitter = new MultiInputNode<>() {
            private int back;

            @Override
            protected Integer svc(int[] in) {
                if (in == null) {
                    for (int i = 0; i < 60; i++) {
                        sendOut(i);
                    }
                    return goOn();
                }
                channelAndWorker.add(new int[] {inputChannel(), in[0]});
                return ++back == 60 ? eos() : goOn();
            }
        };
        class Worker extends Node<Integer, int[]> {
            @Override
            protected int[] svc(Integer in) {
                return new int[] {id(), in};
            }
        }
        Farm farm = Farm.of(3, Worker::new).emitter(emitter).wrapAround();

        farm.runAndWaitEnd();

        assertThat(channelAndWorker).hasSize(60);
        for (int[] pair : channelAndWorker) {
            assertThat(pair[0])
                    .as("feedback channel of an item from worker %d", pair[1])
                    .isEqualTo(pair[1]);
        }
    }

    @Test
    void shouldReportTheWorkerAsInputChannelOfAMultiInputCollector() {
        class Worker extends Node<Integer, Tagged> {
            @Override
            protected Tagged svc(Integer in) {
                return new Tagged(id(), in);
            }
        }
        ChannelRecorder collector = new ChannelRecorder();
        Farm farm = Farm.of(4, Worker::new).collector(collector);

        new Pipeline(source(200), farm).runAndWaitEnd();

        assertThat(collector.channelAndTag).hasSize(200).allMatch(p -> p[0] == p[1]);
        assertThat(collector.channelsInSvc).isEqualTo(4);
        assertThat(collector.eosChannels).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void shouldNumberForwardAndFeedbackChannelsOfAFarmEmitterSeparately() {
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        List<Integer> back = Collections.synchronizedList(new ArrayList<>());
        MultiInputNode<Object, Integer> emitter = new MultiInputNode<>() {
            private int outstanding;
            private boolean ended;

            @Override
            protected Integer svc(Object in) {
                if (inputChannels() != 1 || feedbackChannels() != 3) {
                    violations.add("channels " + inputChannels() + "/" + feedbackChannels());
                }
                if (!fromFeedback()) {
                    if (inputChannel() != 0) {
                        violations.add("forward item on channel " + inputChannel());
                    }
                    outstanding++;
                    return (Integer) in;
                }
                int[] t = (int[]) in;
                if (inputChannel() != t[0]) {
                    violations.add("feedback from worker " + t[0] + " on channel " + inputChannel());
                }
                back.add(t[1]);
                return --outstanding == 0 && ended ? eos() : goOn();
            }

            @Override
            protected void eosNotify(int channel) {
                if (channel != 0) {
                    violations.add("eosNotify(" + channel + ")");
                }
                ended = true;
                if (outstanding == 0) {
                    sendOut(eos());
                }
            }
        };
        class Worker extends Node<Integer, int[]> {
            @Override
            protected int[] svc(Integer in) {
                return new int[] {id(), in};
            }
        }
        Farm farm = Farm.of(3, Worker::new).emitter(emitter).wrapAround();

        new Pipeline(source(90), farm).runAndWaitEnd();

        assertThat(violations).isEmpty();
        assertThat(back).containsExactlyInAnyOrderElementsOf(ints(90));
    }

    @Test
    void shouldCollectItemsOfAllProducersWithPlainSink() {
        Sink<Tagged> sink = new Sink<>();

        new Pipeline(Farm.of(3, () -> new TaggingSource(30, 0)), sink).runAndWaitEnd();

        assertThat(sink.items).hasSize(90);
        assertThat(sink.eosChannels).containsExactly(-1);
    }
}
