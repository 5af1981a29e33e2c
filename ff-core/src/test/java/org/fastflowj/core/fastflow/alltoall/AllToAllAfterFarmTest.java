package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_all-to-all.cpp, tests/test_all-to-all5.cpp and
 * tests/test_all-to-all6.cpp: a 3x3 all-to-all of sources, and an all-to-all after a farm without
 * collector (worker i feeds L-Worker i) or with a multi-output collector, deliver every item once.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AllToAllAfterFarmTest {

    static final class FirstStage extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < 10_000; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class SecondStage extends Node<Long, Void> {
        final List<Long> items = new ArrayList<>();
        final List<Integer> eos = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            items.add(in);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eos.add(channel);
        }
    }

    @Test
    void shouldDeliverEverySourcesItemsAndTellEachRWorkerOfTheEndOnce() {
        List<SecondStage> rWorkers = List.of(new SecondStage(), new SecondStage(), new SecondStage());
        new AllToAll()
                .firstSet(new FirstStage(), new FirstStage(), new FirstStage())
                .secondSet(rWorkers)
                .runAndWaitEnd();

        List<Long> all = new ArrayList<>();
        rWorkers.forEach(r -> all.addAll(r.items));
        assertThat(all).hasSize(30_000);
        assertThat(all.stream().mapToLong(Long::longValue).sum()).isEqualTo(3L * 9_999 * 10_000 / 2);
        assertThat(rWorkers).allSatisfy(r -> {
            assertThat(r.items).isNotEmpty();
            assertThat(r.eos).containsExactly(-1); // a plain node: one eosNotify after all its inputs
        });
    }

    /** Sends item i to worker i % 3. */
    static final class Emitter extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 100; i++) {
                sendOutTo(i, (int) (i % 3));
            }
            return eos();
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Filter1 extends MultiOutputNode<Long, Long> {
        final List<Long> items = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            items.add(in);
            return in;
        }
    }

    private static List<Long> oneToHundred() {
        return LongStream.rangeClosed(1, 100).boxed().toList();
    }

    @Test
    void shouldFeedLWorkerIFromFarmWorkerIWhenTheFarmHasNoCollector() {
        List<Filter1> lWorkers = List.of(new Filter1(), new Filter1(), new Filter1());
        List<SecondStage> rWorkers = List.of(new SecondStage(), new SecondStage());
        Farm farm = Farm.of(3, Pass::new).emitter(new Emitter());
        new Pipeline(farm, new AllToAll().firstSet(lWorkers).secondSet(rWorkers)).runAndWaitEnd();

        for (int k = 0; k < 3; k++) {
            int lane = k;
            assertThat(lWorkers.get(k).items).hasSize(k == 1 ? 34 : 33).allSatisfy(i -> assertThat(i % 3)
                    .isEqualTo(lane));
        }
        List<Long> all = new ArrayList<>(rWorkers.get(0).items);
        all.addAll(rWorkers.get(1).items);
        assertThat(all).containsExactlyInAnyOrderElementsOf(oneToHundred());
    }

    @Test
    void shouldDealTheMultiOutputCollectorsItemsToTheLWorkers() {
        List<Filter1> lWorkers = List.of(new Filter1(), new Filter1(), new Filter1());
        List<SecondStage> rWorkers = List.of(new SecondStage(), new SecondStage());
        Farm farm = Farm.of(3, Pass::new).emitter(new Emitter()).collector(new Filter1());
        new Pipeline(farm, new AllToAll().firstSet(lWorkers).secondSet(rWorkers)).runAndWaitEnd();

        assertThat(lWorkers).allSatisfy(l -> assertThat(l.items).isNotEmpty());
        List<Long> all = new ArrayList<>(rWorkers.get(0).items);
        all.addAll(rWorkers.get(1).items);
        assertThat(all).containsExactlyInAnyOrderElementsOf(oneToHundred());
    }
}
