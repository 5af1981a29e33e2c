package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input2.cpp and tests/test_multi_input8.cpp: a collector-less
 * farm feeding a wrapped farm whose emitter tells input tasks from fed-back ones (ending the loop once
 * every input channel ended, or once every task came back down to 1, with broadcast and a gathering
 * collector).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmIntoFeedbackFarmTest {

    // ---- test_multi_input2 ----

    static final class Emitter1 extends Node<Void, Long> {
        private final long tasks;

        Emitter1(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < tasks; i++) {
                sendOut(i + 10);
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

    /** Forwards input tasks, notes fed-back ones, ends once every input channel ended. */
    static final class Emitter2 extends MultiInputNode<Long, Long> {
        final List<Long> fromInput = new ArrayList<>();
        final List<Long> back = new ArrayList<>();
        private int ended;

        @Override
        protected Long svc(Long in) {
            if (!fromFeedback()) {
                fromInput.add(in);
                return in;
            }
            back.add(in);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            if (++ended == inputChannels()) {
                sendOut(eos()); // FastFlow: lb->broadcast_task(EOS)
            }
        }
    }

    @Test
    void shouldForwardEveryInputTaskAndEndWhenTheInputEnded() {
        int workers = 3;
        long tasks = 100;
        Emitter2 emitter2 = new Emitter2();
        Farm farm1 = Farm.of(workers, Pass::new).emitter(new Emitter1(tasks));
        Farm farm2 = Farm.of(workers, Pass::new).emitter(emitter2).wrapAround();
        new Pipeline(farm1, farm2).runAndWaitEnd();

        List<Long> all = LongStream.range(10, 10 + tasks).boxed().toList();
        assertThat(emitter2.fromInput).containsExactlyInAnyOrderElementsOf(all);
        // As FastFlow's broadcast_task(EOS): sendOut(eos()) from the loop head sends EOS to the workers
        // and keeps reading feedback until they ended, so every task comes back, once.
        assertThat(emitter2.back).containsExactlyInAnyOrderElementsOf(all);
    }

    // ---- test_multi_input8 ----

    static final class W1 extends Node<Void, Long> {
        private final long numTasks;

        W1(long numTasks) {
            this.numTasks = numTasks;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = id() + 1; i <= numTasks; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class W2 extends Node<Long, Long> {
        @Override
        protected Long svc(Long t) {
            if (t <= 1) {
                throw new IllegalStateException("worker got " + t); // FastFlow: assert(t > 1)
            }
            return t - 1;
        }
    }

    record Tagged(long value, boolean back) {}

    /** The emitter's multi-input half: tells the two kinds of input apart. */
    static final class Tag extends MultiInputNode<Long, Tagged> {
        @Override
        protected Tagged svc(Long in) {
            return new Tagged(in, fromFeedback());
        }
    }

    /** The emitter's multi-output half: broadcasts new tasks and fed-back ones above 1, ends when all are down to 1. */
    static final class E extends MultiOutputNode<Tagged, Long> {
        private long inFlight;
        final List<Long> accepted = new ArrayList<>();
        long backs;
        long ones;

        @Override
        protected Long svc(Tagged in) {
            long t = in.value();
            if (!in.back()) {
                if (t == 1) {
                    return goOn();
                }
                inFlight++;
                accepted.add(t);
                broadcast(t);
                return goOn();
            }
            backs++;
            if (t != 1) {
                broadcast(t);
                return goOn();
            }
            ones++;
            return --inFlight == 0 ? eos() : goOn();
        }
    }

    /** Collector: one item from each worker, then the first of them (FastFlow's all_gather, done by hand). */
    static final class C extends MultiInputNode<Long, Long> {
        private final List<ArrayDeque<Long>> pending = new ArrayList<>();

        @Override
        protected void svcInit() {
            for (int i = 0; i < inputChannels(); i++) {
                pending.add(new ArrayDeque<>());
            }
        }

        @Override
        protected Long svc(Long in) {
            pending.get(inputChannel()).add(in);
            if (pending.stream().anyMatch(ArrayDeque::isEmpty)) {
                return goOn();
            }
            Long first = null;
            for (ArrayDeque<Long> q : pending) {
                Long v = q.poll();
                if (first == null) {
                    first = v;
                } else if (!v.equals(first)) {
                    throw new IllegalStateException("workers disagree: " + first + " vs " + v);
                }
            }
            return first;
        }
    }

    @Test
    void shouldBringEveryAcceptedTaskDownToOneThroughBroadcastAndGather() {
        long numTasks = 10;
        E e = new E();
        Farm farm1 = Farm.of(new W1(numTasks), new W1(numTasks));
        Farm farm2 = Farm.of(new W2(), new W2())
                .emitter(Combiner.of(new Tag(), e))
                .collector(new C())
                .wrapAround();
        new Pipeline(farm1, farm2).runAndWaitEnd();

        // the emitter ended because every accepted task came back as 1 (it may end before all input
        // arrived, as in FastFlow, when the tasks in flight drop to zero early)
        assertThat(e.accepted).isNotEmpty();
        assertThat(e.ones).isEqualTo(e.accepted.size());
        assertThat(e.backs).isEqualTo(e.accepted.stream().mapToLong(t -> t - 1).sum());
    }
}
