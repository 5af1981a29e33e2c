package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_optimize3.cpp: an on-demand ordered farm whose workers 0 and 2 are
 * slow gives Last every task in input order (Last aborts on "WRONG ORDERING"), both as pipe(First, ofarm,
 * Last) and after optimize_static merged First into the emitter and Last into the collector.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OptimizedOrderedFarmTest {
    private static final int TASKS = 3000;
    private static final int NWORKERS = 4;

    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Worker 0 works 50 us per task, worker 2 20 us, the others nothing. */
    static final class Worker extends Node<Long, Long> {
        long count;

        @Override
        protected Long svc(Long in) {
            count++;
            if (id() == 0) {
                LockSupport.parkNanos(50_000);
            } else if (id() == 2) {
                LockSupport.parkNanos(20_000);
            }
            return in;
        }
    }

    /** Checks the order: it expects 1, 2, 3, ... and counts the tasks out of place. */
    static final class Last extends Node<Long, Void> {
        long counter;
        long expected = 1;
        final List<String> wrong = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            if (in != expected && wrong.size() < 10) {
                wrong.add("received " + in + " expected " + expected);
            }
            counter++;
            expected++;
            return goOn();
        }
    }

    private static List<Worker> workers() {
        List<Worker> w = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            w.add(new Worker());
        }
        return w;
    }

    private static void runAndCheck(BuildingBlock network, Last last, List<Worker> workers, WaitStrategy strategy) {
        network.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(last.wrong).as("WRONG ORDERING").isEmpty();
        assertThat(last.counter).isEqualTo(TASKS);
        assertThat(workers.stream().mapToLong(w -> w.count).sum()).isEqualTo(TASKS);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepTheOrderInPipeOfFirstOrderedFarmAndLast(WaitStrategy strategy) {
        List<Worker> workers = workers();
        Last last = new Last();
        Pipeline pipe = new Pipeline(new First(), Farm.of(workers).ordered().onDemand(), last);
        // First, emitter, 4 workers, collector, Last
        assertThat(GraphCompiler.compile(pipe).vertices()).hasSize(8);

        runAndCheck(pipe, last, workers, strategy);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepTheOrderWithFirstAsEmitterAndLastAsCollector(WaitStrategy strategy) {
        List<Worker> workers = workers();
        Last last = new Last();
        Farm farm =
                Farm.of(workers).emitter(new First()).collector(last).ordered().onDemand();
        assertThat(GraphCompiler.compile(farm).vertices()).hasSize(6);

        runAndCheck(farm, last, workers, strategy);
    }
}
