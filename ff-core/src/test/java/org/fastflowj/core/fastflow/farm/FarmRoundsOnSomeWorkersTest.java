package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_stopstartall.cpp: one emitter, four workers and one collector run round
 * after round on 1, 2, 4, 2, 1, 1, ... of the workers (a warm-up round on all of them first). Each round the
 * emitter sends a hundred tasks per {@code svc} call, returning GO_ON, until an outside flag asks it to end.
 * Every node taking part in a round is initialised and ended once in it; the others are not woken; the
 * collector gets every task of its round.
 *
 * <p>FastFlow runs one farm with {@code run_then_freeze(n)}, which wakes only its first n workers; here each
 * round runs a farm of the same node objects, built on the first n workers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FarmRoundsOnSomeWorkersTest {
    private static final int MAX_WORKERS = 4;
    private static final int TASKS = 100;
    private static final int ROUNDS = 10;

    /** The node's life cycle over the rounds: one entry per round it took part in. */
    abstract static class Counted<I, O> extends Node<I, O> {
        final List<Integer> initsInRound = new ArrayList<>();
        final List<Integer> endsInRound = new ArrayList<>();
        int round;

        @Override
        protected void svcInit() {
            initsInRound.add(round);
        }

        @Override
        protected void svcEnd() {
            endsInRound.add(round);
        }
    }

    static final class Emitter extends Counted<Void, Long> {
        volatile boolean reconfigure;
        volatile long sentThisRound;

        @Override
        protected void svcInit() {
            super.svcInit();
            sentThisRound = 0;
        }

        @Override
        protected Long svc(Void none) throws InterruptedException {
            if (reconfigure) {
                return eos();
            }
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            sentThisRound += TASKS;
            Thread.sleep(5);
            return goOn();
        }
    }

    static final class Worker extends Counted<Long, Long> {
        long tasks;

        @Override
        protected Long svc(Long task) {
            tasks++;
            return task;
        }
    }

    static final class Collector extends Counted<Long, Void> {
        long receivedThisRound;

        @Override
        protected void svcInit() {
            super.svcInit();
            receivedThisRound = 0;
        }

        @Override
        protected Void svc(Long task) {
            receivedThisRound++;
            return goOn();
        }
    }

    @Test
    void shouldWakeOnlyTheWorkersOfEachRoundAndCollectEveryTask() throws InterruptedException {
        Emitter emitter = new Emitter();
        Collector collector = new Collector();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < MAX_WORKERS; i++) {
            workers.add(new Worker());
        }
        List<Integer> activeWorkers = new ArrayList<>();
        activeWorkers.add(MAX_WORKERS); // the warm-up round: every thread starts, then stops
        int n = 1;
        boolean up = true;
        for (int i = 0; i < ROUNDS; i++) {
            activeWorkers.add(n);
            if (up && n < MAX_WORKERS) {
                n = Math.min(2 * n, MAX_WORKERS);
            } else {
                n = Math.max(1, n / 2);
                up = false;
            }
        }
        assertThat(activeWorkers).startsWith(4, 1, 2, 4, 2, 1, 1);

        List<Long> sent = new ArrayList<>();
        List<Long> received = new ArrayList<>();
        for (int round = 0; round < activeWorkers.size(); round++) {
            List<Worker> active = workers.subList(0, activeWorkers.get(round));
            for (Counted<?, ?> node : nodes(emitter, collector, workers)) {
                node.round = round;
            }
            emitter.reconfigure = round == 0; // the warm-up round ends at once
            Farm farm = Farm.of(active).emitter(emitter).collector(collector);
            farm.run();
            if (round > 0) { // the C++ program waits 300 ms before it asks the farm to end
                awaitFirstTasks(emitter);
            }
            emitter.reconfigure = true;
            assertThat(farm.waitEnd(30, TimeUnit.SECONDS))
                    .as("round %d ended", round)
                    .isTrue();
            sent.add(emitter.sentThisRound);
            received.add(collector.receivedThisRound);
        }

        assertThat(received).isEqualTo(sent);
        assertThat(sent.subList(1, sent.size()))
                .allSatisfy(count -> assertThat(count).isPositive());
        List<Integer> everyRound = rounds(activeWorkers.size());
        assertThat(emitter.initsInRound).isEqualTo(everyRound);
        assertThat(emitter.endsInRound).isEqualTo(everyRound);
        assertThat(collector.initsInRound).isEqualTo(everyRound);
        assertThat(collector.endsInRound).isEqualTo(everyRound);
        for (int w = 0; w < MAX_WORKERS; w++) {
            List<Integer> roundsOfWorker = new ArrayList<>();
            for (int round = 0; round < activeWorkers.size(); round++) {
                if (w < activeWorkers.get(round)) {
                    roundsOfWorker.add(round);
                }
            }
            assertThat(workers.get(w).initsInRound).as("worker %d woken", w).isEqualTo(roundsOfWorker);
            assertThat(workers.get(w).endsInRound).as("worker %d ended", w).isEqualTo(roundsOfWorker);
        }
        assertThat(workers.stream().mapToLong(w -> w.tasks).sum())
                .isEqualTo(sent.stream().mapToLong(Long::longValue).sum());
    }

    /** Until the emitter sent its first batch of the round (with a deadline), then a while longer. */
    private static void awaitFirstTasks(Emitter emitter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (emitter.sentThisRound == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(20);
    }

    private static List<Counted<?, ?>> nodes(Emitter emitter, Collector collector, List<Worker> workers) {
        List<Counted<?, ?>> all = new ArrayList<>(workers);
        all.add(emitter);
        all.add(collector);
        return all;
    }

    private static List<Integer> rounds(int count) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }
}
