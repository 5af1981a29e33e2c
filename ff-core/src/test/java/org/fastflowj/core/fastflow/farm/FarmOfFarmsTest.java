package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_farm+farm.cpp and tests/test_farm+farm2.cpp: farms as workers of a farm, with feedback to the outer emitter or fanning in to the outer collector. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FarmOfFarmsTest {
    private static final int TASKS = 1000;

    private static List<Long> oneTo(long n) {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    /** Outer emitter and loop head: sends every task once, then counts them back (test_farm+farm). */
    static final class Scheduler extends MultiInputNode<Long, Long> {
        final List<List<Long>> backPerChannel = new ArrayList<>();
        int feedbackChannelsSeen;
        boolean sawForwardItem;
        private int count;

        @Override
        protected Long svc(Long back) {
            if (back == null) {
                feedbackChannelsSeen = feedbackChannels();
                for (int c = 0; c < feedbackChannels(); c++) {
                    backPerChannel.add(new ArrayList<>());
                }
                for (long i = 1; i <= TASKS; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            sawForwardItem |= !fromFeedback();
            backPerChannel.get(inputChannel()).add(back);
            return ++count >= TASKS ? eos() : goOn();
        }
    }

    static final class Forward extends Node<Long, Long> {
        @Override
        protected Long svc(Long task) {
            return task;
        }
    }

    static final class RecordingWorker extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();
        final Set<Integer> ids = new HashSet<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            ids.add(id());
            return task;
        }
    }

    @Test
    void shouldSendEveryTaskBackToTheOuterEmitterFromTheInnerFarmsWorkers() {
        RecordingWorker w1 = new RecordingWorker();
        RecordingWorker w2 = new RecordingWorker();
        Farm inner1 = Farm.of(w1).emitter(new Forward());
        Farm inner2 = Farm.of(w2).emitter(new Forward());
        Scheduler scheduler = new Scheduler();
        Farm.of(inner1, inner2).emitter(scheduler).wrapAround().runAndWaitEnd();

        assertThat(scheduler.feedbackChannelsSeen).isEqualTo(2);
        assertThat(scheduler.sawForwardItem).isFalse();
        List<Long> allBack = new ArrayList<>(scheduler.backPerChannel.get(0));
        allBack.addAll(scheduler.backPerChannel.get(1));
        assertThat(allBack).containsExactlyInAnyOrderElementsOf(oneTo(TASKS));
        // feedback channel i is inner farm i's worker: it sent back exactly what it processed, in order
        assertThat(scheduler.backPerChannel.get(0)).containsExactlyElementsOf(w1.seen);
        assertThat(scheduler.backPerChannel.get(1)).containsExactlyElementsOf(w2.seen);
        assertThat(w1.ids).containsExactly(0); // each inner worker is worker 0 of its own farm
        assertThat(w2.ids).containsExactly(0);
    }

    /** Multi-output emitter of the inner farm (test_farm+farm2). */
    static final class Node1 extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Outer collector: records which channel each item came from. */
    static final class Node3 extends MultiInputNode<Long, Long> {
        final List<List<Long>> perChannel = new ArrayList<>();
        int channels;

        @Override
        protected void svcInit() {
            channels = inputChannels();
            for (int c = 0; c < channels; c++) {
                perChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Long svc(Long item) {
            perChannel.get(inputChannel()).add(item);
            return item;
        }
    }

    static final class Node4 extends Node<Long, Void> {
        final List<Long> processed = new ArrayList<>();

        @Override
        protected Void svc(Long item) {
            processed.add(item);
            return goOn();
        }
    }

    @Test
    void shouldCollectEveryTaskOfAFarmNestedInAFarmWithCollector() {
        List<RecordingWorker> workers = List.of(new RecordingWorker(), new RecordingWorker(), new RecordingWorker());
        Farm inner = Farm.of(workers).emitter(new Node1());
        Node3 collector = new Node3();
        Farm outer = Farm.of(inner).collector(collector);
        Node4 last = new Node4();
        new Pipeline(outer, last).runAndWaitEnd();

        assertThat(last.processed)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, TASKS).boxed().toList());
        // the inner workers fan in to the outer collector: one channel per inner worker
        assertThat(collector.channels).isEqualTo(3);
        for (int k = 0; k < 3; k++) {
            assertThat(collector.perChannel.get(k)).containsExactlyElementsOf(workers.get(k).seen);
        }
    }
}
