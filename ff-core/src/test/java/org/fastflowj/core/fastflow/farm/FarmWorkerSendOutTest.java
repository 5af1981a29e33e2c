package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test1b.cpp: farm workers that ff_send_out a -2 for each task and return GO_ON, and try to ff_send_out a -3 from svc_end. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmWorkerSendOutTest {

    static final class Emitter extends Node<Void, Integer> {
        private int ntask;

        Emitter(int ntask) {
            this.ntask = ntask;
        }

        @Override
        protected Integer svc(Void none) {
            int task = ntask;
            --ntask;
            return ntask < 0 ? eos() : Integer.valueOf(task);
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        private final boolean sendFromSvcEnd;
        final List<Integer> received = new ArrayList<>();

        Worker(boolean sendFromSvcEnd) {
            this.sendFromSvcEnd = sendFromSvcEnd;
        }

        @Override
        protected Integer svc(Integer task) {
            received.add(task);
            sendOut(-2);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            if (sendFromSvcEnd) {
                sendOut(-3);
            }
        }
    }

    static final class Collector extends Node<Integer, Integer> {
        final List<Integer> received = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            received.add(task);
            return task == -1 ? eos() : task;
        }
    }

    @Test
    void shouldDeliverWhatWorkersSendOutAlthoughTheyReturnGoOn() {
        List<Worker> workers = List.of(new Worker(false), new Worker(false));
        Collector collector = new Collector();
        Farm.of(workers).emitter(new Emitter(10)).collector(collector).runAndWaitEnd();

        assertThat(workers.get(0).received.size() + workers.get(1).received.size())
                .isEqualTo(10);
        assertThat(collector.received).hasSize(10).containsOnly(-2);
    }

    @Test
    void shouldFailTheRunWhenAWorkerSendsFromSvcEnd() {
        // Documented difference (docs/building-blocks.md, life-cycle rule 3): sending from svcEnd throws
        // IllegalStateException because the EOS is already out; in FastFlow the -3 would trail the worker's EOS.
        List<Worker> workers = List.of(new Worker(true), new Worker(true));
        Farm farm = Farm.of(workers).emitter(new Emitter(10)).collector(new Collector());

        NodeFailedException failure = catchThrowableOfType(NodeFailedException.class, farm::runAndWaitEnd);

        assertThat(failure).isNotNull();
        assertThat(failure.phase()).isEqualTo("svcEnd");
        assertThat(failure.nodeName()).startsWith("ff-farm1-worker");
        assertThat(failure.getCause()).isInstanceOf(IllegalStateException.class);
    }
}
