package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_scheduling2.cpp: an emitter sends 1..ntask to an on-demand farm of four
 * workers that each spend a random time per task and count their tasks; every task is run exactly once.
 *
 * <p>Partly mirrored: the C++ test plugs in its own load balancer, whose callback learns the chosen worker of
 * each task (to hand it a per-worker buffer); a custom load-balancer hook is outside our API, so only the
 * farm's observable result is checked.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OnDemandRandomCostFarmTest {
    private static final int NWORKERS = 4;
    private static final long NTASK = 1000;

    static final class Emitter extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASK; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Spins for a random time (up to about 30 µs, the C++ ticks_wait(random() % 100000)), counts its tasks. */
    static final class Worker extends Node<Long, Void> {
        private final Random random;
        final List<Long> got = new ArrayList<>();

        Worker(long seed) {
            random = new Random(seed);
        }

        @Override
        protected Void svc(Long task) {
            long until = System.nanoTime() + random.nextInt(30_000);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            got.add(task);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldRunEveryTaskOnceOnSomeWorker(WaitStrategy strategy) {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            workers.add(new Worker(i));
        }
        Farm farm = Farm.of(workers).emitter(new Emitter()).onDemand();
        farm.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        List<Long> all = new ArrayList<>();
        workers.forEach(w -> all.addAll(w.got));
        assertThat(all)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, NTASK).boxed().toList());
        RunStats stats = farm.stats();
        for (int i = 0; i < NWORKERS; i++) {
            NodeStats worker = stats.node("ff-farm1-worker" + i).orElseThrow();
            assertThat(worker.itemsIn())
                    .as("worker %d", i)
                    .isEqualTo(workers.get(i).got.size());
            // each worker takes its tasks in the order the emitter sent them
            assertThat(workers.get(i).got).isSorted();
        }
        assertThat(stats.node("ff-farm1-emitter").orElseThrow().itemsOut()).isEqualTo(NTASK);
    }
}
