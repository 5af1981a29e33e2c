package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Behaviour of FastFlow's tests/test_sendq.cpp: an emitter sends a task and then waits, inside svc, until a worker hands it back through a side queue, streamlen times; each task sent with ff_send_out must reach a worker while the emitter is still busy in svc. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EmitterWaitsForWorkerTest {

    static final class Emitter extends Node<Void, BlockingQueue<Object>> {
        private final int ntask;
        private final BlockingQueue<Object> back = new ArrayBlockingQueue<>(1024);
        int roundTrips;

        Emitter(int ntask) {
            this.ntask = ntask;
        }

        @Override
        protected BlockingQueue<Object> svc(Void none) throws InterruptedException {
            for (int i = 0; i < ntask; i++) {
                sendOut(back);
                Object returned = back.poll(20, TimeUnit.SECONDS); // the C++ emitter spins on the queue
                if (returned != back) {
                    throw new IllegalStateException("task " + i + " never came back");
                }
                roundTrips++;
            }
            return eos();
        }
    }

    /** Pushes the task (the queue itself) back into it. */
    static final class Worker extends Node<BlockingQueue<Object>, Void> {
        int got;

        @Override
        protected Void svc(BlockingQueue<Object> q) throws InterruptedException {
            got++;
            q.put(q);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEachTaskWhileTheEmitterWaitsInSvc(WaitStrategy strategy) {
        int streamlen = 1000;
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(new Worker());
        }
        Emitter emitter = new Emitter(streamlen);
        Farm.of(workers).emitter(emitter).runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(emitter.roundTrips).isEqualTo(streamlen);
        assertThat(workers.stream().mapToInt(w -> w.got).sum()).isEqualTo(streamlen);
    }
}
