package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Farm#affinity}: items go to the workers of their set when those have room, and the rules of it. */
@Timeout(30)
class FarmAffinityTest {
    /** An item that prefers the set of workers {@code to} (-1: none). */
    record Job(int n, int to) {}

    /** Set i is worker i alone. */
    private static final int[][] ONE_EACH = {{0}, {1}, {2}};

    /** Records which worker ran each job and sends it back. */
    static final class Worker extends Node<Job, Job> {
        final int index;
        final Map<Integer, Integer> ranBy;

        Worker(int index, Map<Integer, Integer> ranBy) {
            this.index = index;
            this.ranBy = ranBy;
        }

        @Override
        protected Job svc(Job job) {
            ranBy.put(job.n(), index);
            return job;
        }
    }

    /**
     * Sends {@code jobs} jobs, one at a time: the next once the last came back, so the worker it prefers
     * always has room; job {@code n} prefers worker {@code n % 3}, and jobs past {@code preferring} none.
     */
    static final class OneAtATime extends MultiInputNode<Job, Job> {
        private final int jobs;
        private final int preferring;
        private int sent;

        OneAtATime(int jobs, int preferring) {
            this.jobs = jobs;
            this.preferring = preferring;
        }

        @Override
        protected Job svc(Job back) {
            if (back != null && sent == jobs) {
                return eos();
            }
            int n = sent++;
            return new Job(n, n < preferring ? n % 3 : -1);
        }
    }

    private static List<Worker> workers(Map<Integer, Integer> ranBy) {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(new Worker(i, ranBy));
        }
        return workers;
    }

    @Test
    void shouldGiveEachJobToTheWorkerItPrefersWhenThatWorkerHasRoom() {
        Map<Integer, Integer> ranBy = new ConcurrentHashMap<>();
        Farm.of(workers(ranBy))
                .emitter(new OneAtATime(60, 60))
                .onDemand()
                .wrapAround()
                .affinity(ONE_EACH, job -> ((Job) job).to())
                .runAndWaitEnd();

        assertThat(ranBy).hasSize(60);
        ranBy.forEach((n, worker) -> assertThat(worker).as("job %d", n).isEqualTo(n % 3));
    }

    @Test
    void shouldRunJobsWithoutAPreferenceAnywhere() {
        Map<Integer, Integer> ranBy = new ConcurrentHashMap<>();
        Farm.of(workers(ranBy))
                .emitter(new OneAtATime(30, 0))
                .onDemand()
                .wrapAround()
                .affinity(ONE_EACH, job -> ((Job) job).to())
                .runAndWaitEnd();

        assertThat(ranBy).hasSize(30);
    }

    @Test
    void shouldRefuseAnAffinityWithoutOnDemand() {
        Farm farm = Farm.of(workers(new ConcurrentHashMap<>()))
                .emitter(new OneAtATime(1, 0))
                .wrapAround()
                .affinity(ONE_EACH, job -> -1);

        assertThatThrownBy(farm::runAndWaitEnd)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("has a worker affinity, so it must be onDemand()");
    }

    @Test
    void shouldRefuseAnAffinityOverWorkersThatAreNotNodesOrPipelines() {
        Farm inner = Farm.of(workers(new ConcurrentHashMap<>()));
        Farm farm =
                Farm.of(inner, inner).emitter(new OneAtATime(1, 0)).onDemand().affinity(ONE_EACH, job -> -1);

        assertThatThrownBy(farm::runAndWaitEnd)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("but its workers must be nodes or pipelines of nodes");
    }

    @Test
    void shouldRefuseASetNamingAWorkerTheFarmDoesNotHave() {
        Farm farm = Farm.of(workers(new ConcurrentHashMap<>()))
                .emitter(new OneAtATime(1, 0))
                .onDemand()
                .wrapAround()
                .affinity(new int[][] {{0, 3}}, job -> -1);

        assertThatThrownBy(farm::runAndWaitEnd)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("its set of workers 0 names worker 3, but it has 3");
    }

    @Test
    void shouldRefuseAnAffinityWithAnEmitterThatChoosesWorkers() {
        MultiOutputNode<Job, Job> chooser = new MultiOutputNode<>() {
            @Override
            protected Job svc(Job job) {
                return eos();
            }
        };
        Farm farm = Farm.of(workers(new ConcurrentHashMap<>()))
                .emitter(chooser)
                .onDemand()
                .wrapAround()
                .affinity(ONE_EACH, job -> -1);

        assertThatThrownBy(farm::runAndWaitEnd)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("its emitter must not choose workers");
    }
}
