package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all13.cpp and tests/test_farm+A2A.cpp: a master-worker farm whose multi-output workers send each task both back to the emitter and forward into an all-to-all. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FeedbackFarmToAllToAllTest {
    private static final int TASKS = 1000;

    private static List<Long> oneToTasks() {
        return LongStream.rangeClosed(1, TASKS).boxed().toList();
    }

    /** A task that came back, with the feedback channel it came on; channel -1 is the start call. */
    record Back(int channel, long task) {}

    /** Multi-input half of the emitter: tells the multi-output half where each result came from. */
    static final class WhereFrom extends MultiInputNode<Long, Back> {
        @Override
        protected Back svc(Long task) {
            return task == null ? new Back(-1, 0) : new Back(fromFeedback() ? inputChannel() : -2, task);
        }
    }

    /** Multi-output half: one task per worker to start, then the next task to the worker that just finished one. */
    static final class NextToSameWorker extends MultiOutputNode<Back, Long> {
        private long remaining = TASKS;
        final List<Integer> channels = new ArrayList<>();

        @Override
        protected Long svc(Back back) {
            if (back.channel() == -1) {
                for (int i = 0; i < outputChannels() && remaining > 0; i++) {
                    sendOutTo(remaining--, i);
                }
                return goOn();
            }
            channels.add(back.channel());
            sendOutTo(remaining--, back.channel());
            return remaining == 0 ? eos() : goOn();
        }
    }

    /** Sends each task forward and back (FastFlow numbers them 1 and 0; here two numberings). */
    static final class ForwardAndBack extends MultiOutputNode<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            sendOutTo(task, 0);
            sendFeedbackTo(task, 0);
            return goOn();
        }
    }

    static final class Recorder extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            return task;
        }
    }

    static final class Last extends MultiInputNode<Long, Void> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            seen.add(task);
            return goOn();
        }
    }

    @Test
    void shouldFeedTheAllToAllWhileTheEmitterHandsEachWorkerItsNextTask() {
        NextToSameWorker router = new NextToSameWorker();
        List<ForwardAndBack> workers = List.of(new ForwardAndBack(), new ForwardAndBack(), new ForwardAndBack());
        Farm farm =
                Farm.of(workers).emitter(Combiner.of(new WhereFrom(), router)).wrapAround();
        List<Recorder> lWorkers = List.of(new Recorder(), new Recorder(), new Recorder());
        AllToAll a2a = new AllToAll().firstSet(lWorkers).secondSet(new Recorder(), new Recorder());
        Last last = new Last();
        new Pipeline(farm, a2a, last).runAndWaitEnd();

        assertThat(last.seen).containsExactlyInAnyOrderElementsOf(oneToTasks());
        assertThat(router.channels).hasSize(TASKS - 3).allSatisfy(c -> assertThat(c)
                .isBetween(0, 2));
        for (int k = 0; k < 3; k++) {
            // plain L-Workers, as many as the workers: worker k feeds L-Worker k only
            assertThat(lWorkers.get(k).seen).containsExactlyElementsOf(workers.get(k).seen);
        }
    }

    /** Scheduler of test_farm+A2A: sends all tasks, ends when all came back. */
    static final class Scheduler extends MultiInputNode<Long, Long> {
        int back;

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                for (long i = 1; i <= TASKS; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            return ++back >= TASKS ? eos() : goOn();
        }
    }

    static final class MoPass extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long task) {
            return task;
        }
    }

    @Test
    void shouldCollectEveryTaskInTheAllToAllsSingleRWorker() {
        Scheduler scheduler = new Scheduler();
        Farm farm = Farm.of(3, ForwardAndBack::new).emitter(scheduler).wrapAround();
        AllToAll a2a = new AllToAll()
                .firstSet(
                        new Pipeline(new Recorder(), new MoPass()),
                        new Pipeline(new Recorder(), new MoPass()),
                        new Pipeline(new Recorder(), new MoPass()))
                .secondSet(new Last());
        Last collector = (Last) a2a.secondSet().get(0);
        new Pipeline(farm, a2a).runAndWaitEnd();

        assertThat(scheduler.back).isEqualTo(TASKS);
        assertThat(collector.seen).containsExactlyInAnyOrderElementsOf(oneToTasks());
    }
}
