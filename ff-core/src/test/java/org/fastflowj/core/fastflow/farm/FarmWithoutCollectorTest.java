package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test2.cpp: a collector-less farm whose emitter allocates streamlen tasks; every worker's svc_init runs once and the workers together free every task. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FarmWithoutCollectorTest {

    static final class Emitter extends Node<Void, int[]> {
        private int ntask;
        int inits;

        Emitter(int ntask) {
            this.ntask = ntask;
        }

        @Override
        protected void svcInit() {
            inits++;
        }

        @Override
        protected int[] svc(Void none) {
            int[] task = new int[1 + ntask % 7];
            --ntask;
            return ntask < 0 ? eos() : task;
        }
    }

    /** Frees (counts) its task and emits nothing. */
    static final class Worker extends Node<int[], Void> {
        int inits;
        int freed;
        int idAtInit = -1;

        @Override
        protected void svcInit() {
            inits++;
            idAtInit = id();
        }

        @Override
        protected Void svc(int[] task) {
            freed++;
            return goOn();
        }
    }

    @Test
    void shouldInitEachWorkerOnceAndConsumeEveryTask() {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(new Worker());
        }
        Emitter emitter = new Emitter(1000);
        Farm.of(workers).emitter(emitter).runAndWaitEnd();

        assertThat(emitter.inits).isEqualTo(1);
        assertThat(workers).extracting(w -> w.inits).containsExactly(1, 1, 1);
        assertThat(workers).extracting(w -> w.idAtInit).containsExactly(0, 1, 2);
        assertThat(workers.stream().mapToInt(w -> w.freed).sum()).isEqualTo(1000);
    }
}
