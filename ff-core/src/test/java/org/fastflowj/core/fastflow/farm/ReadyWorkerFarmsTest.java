package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_multi_output5.cpp: pipe(farm1, farm2) where farm1's emitter rotates tasks
 * over the workers a manager has not removed, and farm2's emitter hands a task to a worker only once its
 * multi-output worker acknowledged the previous one on the feedback channel, while the worker's copy goes on
 * to a multi-input collector (version 1: a stage after the wrapped farm; version 2: the farm's collector).
 *
 * <p>Partly mirrored. The manager thread and its side channels, and freezing/thawing workers with GO_OUT and
 * thaw, are out of scope. The manager's commands to farm1's emitter are modelled as a queue that already
 * holds them all when the emitter polls it (one interleaving of the C++ program), and removing a worker only
 * takes it out of the emitter's rotation; the commands to farm2's emitter, which only freeze and thaw its
 * workers without changing where tasks go, are left out.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ReadyWorkerFarmsTest {
    private static final int NWORKERS = 3;
    private static final long NTASKS = 1000;

    enum Op {
        ADD,
        REMOVE
    }

    record Command(int worker, Op op) {}

    /** The manager's EOS on the command channel. */
    private static final Command END = new Command(-1, Op.ADD);

    /** The manager's commands to farm1's emitter, in the order it sends them. */
    private static Queue<Command> managerChannel() {
        Queue<Command> channel = new ArrayDeque<>();
        channel.add(new Command(0, Op.REMOVE));
        channel.add(new Command(1, Op.REMOVE));
        channel.add(new Command(1, Op.ADD));
        channel.add(new Command(0, Op.ADD));
        channel.add(END);
        return channel;
    }

    /** Picks the next ready worker after the last one used, wrapping around; -1 if none is ready. */
    static int selectReadyWorker(boolean[] ready, int[] last) {
        for (int i = last[0] + 1; i < ready.length; i++) {
            if (ready[i]) {
                last[0] = i;
                return i;
            }
        }
        for (int i = 0; i <= last[0] && i < ready.length; i++) {
            if (ready[i]) {
                last[0] = i;
                return i;
            }
        }
        return -1;
    }

    /** Farm1's emitter: every tenth task it polls the command channel; task i is i + 10. */
    static final class Emitter1 extends MultiOutputNode<Void, Long> {
        private final Queue<Command> commands;
        final List<String> applied = new ArrayList<>();
        long skipped = -1;

        Emitter1(Queue<Command> commands) {
            this.commands = commands;
        }

        @Override
        protected Long svc(Void none) {
            boolean[] ready = new boolean[outputChannels()];
            Arrays.fill(ready, true);
            int[] last = {outputChannels()};
            boolean managerAlive = true;
            for (long i = 0; i < NTASKS; i++) {
                if (i >= 10 && i % 10 == 0 && managerAlive) {
                    Command cmd = commands.poll();
                    if (cmd == END) {
                        managerAlive = false;
                        skipped = i + 10; // as in the C++ loop, the task of this round is not sent
                        continue;
                    }
                    if (cmd != null) {
                        applied.add(cmd.op() + " " + cmd.worker() + " at " + i);
                        ready[cmd.worker()] = cmd.op() == Op.ADD;
                    }
                }
                sendOutTo(i + 10, selectReadyWorker(ready, last));
            }
            return eos();
        }
    }

    static final class Worker1 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            got.add(task);
            return task;
        }
    }

    /** A task, and where it came from: -1 for farm1's workers, else the feedback channel (worker) index. */
    record Tagged(long value, int from) {}

    /** First half of farm2's emitter: multi-input, tells input tasks from acknowledgements. */
    static final class Tag extends MultiInputNode<Long, Tagged> {
        final List<Integer> endedChannels = new ArrayList<>();

        @Override
        protected Tagged svc(Long in) {
            return new Tagged(in, fromFeedback() ? inputChannel() : -1);
        }

        @Override
        protected void eosNotify(int channel) {
            endedChannels.add(channel);
        }
    }

    /** Second half of farm2's emitter: multi-output, the on-demand scheduler with a LIFO backlog. */
    static final class Emitter2 extends MultiOutputNode<Tagged, Long> {
        private boolean[] ready;
        private final int[] last = new int[1];
        private int nready;
        private boolean inputEnded;
        private final ArrayDeque<Long> data = new ArrayDeque<>();
        final List<List<Long>> sentTo = new ArrayList<>();
        final List<List<Long>> ackedBy = new ArrayList<>();
        int ackFromReadyWorker;
        int leftInBacklog = -1;

        @Override
        protected void svcInit() {
            ready = new boolean[NWORKERS];
            Arrays.fill(ready, true);
            nready = NWORKERS;
            last[0] = NWORKERS;
            for (int i = 0; i < NWORKERS; i++) {
                sentTo.add(new ArrayList<>());
                ackedBy.add(new ArrayList<>());
            }
        }

        private void sendTo(long task, int worker) {
            sendOutTo(task, worker);
            sentTo.get(worker).add(task);
            ready[worker] = false;
            nready--;
        }

        @Override
        protected Long svc(Tagged t) {
            if (t.from() == -1) {
                int victim = selectReadyWorker(ready, last);
                if (victim < 0) {
                    data.push(t.value());
                } else {
                    sendTo(t.value(), victim);
                }
                return goOn();
            }
            int wid = t.from();
            if (ready[wid]) {
                ackFromReadyWorker++;
            }
            ackedBy.get(wid).add(t.value());
            ready[wid] = true;
            nready++;
            if (!data.isEmpty()) {
                sendTo(data.pop(), wid);
            } else if (inputEnded && nready == NWORKERS) {
                return eos();
            }
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            // the combiner tells this half once, after every input channel (every farm1 worker) ended
            inputEnded = true;
            if (nready == NWORKERS && data.isEmpty()) {
                sendOut(eos());
            }
        }

        @Override
        protected void svcEnd() {
            leftInBacklog = data.size();
        }
    }

    /** Farm2's worker: the task goes on to the collector, then back to the emitter as "ready". */
    static final class Worker2 extends MultiOutputNode<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            got.add(task);
            sendOutTo(task, 0);
            sendFeedbackTo(task, 0);
            return goOn();
        }
    }

    static final class Collector extends MultiInputNode<Long, Void> {
        final List<Long> received = new ArrayList<>();
        int channels;

        @Override
        protected Void svc(Long task) {
            channels = inputChannels();
            received.add(task);
            return goOn();
        }
    }

    /** Which farm1 worker task i (sent as i + 10) goes to, with the manager's commands applied at 10, 20, 30, 40. */
    private static int expectedFarm1Worker(long i) {
        if (i < 10) {
            return (int) (i % 3); // all ready: strict rotation
        } else if (i < 20) {
            return i % 2 == 0 ? 1 : 2; // worker 0 removed
        } else if (i < 30) {
            return 2; // workers 0 and 1 removed
        } else if (i < 40) {
            return i % 2 == 0 ? 1 : 2; // worker 1 back
        } else if (i < 50) {
            return (int) ((i - 40) % 3); // worker 0 back
        }
        return (int) ((i - 50) % 3); // i = 50 read the manager's EOS and was skipped
    }

    private void runAndCheck(boolean collectorInFarm, WaitStrategy strategy) {
        Emitter1 emitter1 = new Emitter1(managerChannel());
        List<Worker1> workers1 = List.of(new Worker1(), new Worker1(), new Worker1());
        Farm farm1 = Farm.of(workers1).emitter(emitter1);

        Tag tag = new Tag();
        Emitter2 emitter2 = new Emitter2();
        List<Worker2> workers2 = List.of(new Worker2(), new Worker2(), new Worker2());
        Collector collector = new Collector();
        Farm farm2 = Farm.of(workers2).emitter(Combiner.of(tag, emitter2));
        BuildingBlock program;
        if (collectorInFarm) {
            // version 2: the collector is farm2's, and the feedback comes from the workers
            program = new Pipeline(farm1, farm2.collector(collector).feedbackFromWorkers());
        } else {
            // version 1: pipe(farm1, pipe_internal(wrap_around(farm2), Collector))
            program = new Pipeline(farm1, new Pipeline(farm2.wrapAround(), collector));
        }
        program.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        // farm1: the manager's commands were applied in order, and removed workers got nothing meanwhile
        assertThat(emitter1.applied).containsExactly("REMOVE 0 at 10", "REMOVE 1 at 20", "ADD 1 at 30", "ADD 0 at 40");
        assertThat(emitter1.skipped).isEqualTo(60);
        for (int w = 0; w < NWORKERS; w++) {
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i < NTASKS; i++) {
                if (i != 50 && expectedFarm1Worker(i) == w) {
                    expected.add(i + 10);
                }
            }
            assertThat(workers1.get(w).got).as("farm1 worker %d", w).containsExactlyElementsOf(expected);
        }

        // farm2: every task reached the collector once, each worker only got a task once it was ready
        List<Long> all =
                LongStream.range(10, NTASKS + 10).filter(v -> v != 60).boxed().toList();
        assertThat(collector.received).containsExactlyInAnyOrderElementsOf(all);
        assertThat(collector.channels).isEqualTo(NWORKERS);
        assertThat(tag.endedChannels).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(emitter2.ackFromReadyWorker).isZero();
        assertThat(emitter2.leftInBacklog).isZero();
        for (int w = 0; w < NWORKERS; w++) {
            assertThat(workers2.get(w).got).as("farm2 worker %d", w).containsExactlyElementsOf(emitter2.sentTo.get(w));
            assertThat(emitter2.ackedBy.get(w))
                    .as("acks of farm2 worker %d", w)
                    .containsExactlyElementsOf(emitter2.sentTo.get(w));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldScheduleOnReadyWorkersWithTheCollectorAfterTheWrappedFarm(WaitStrategy strategy) {
        runAndCheck(false, strategy);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldScheduleOnReadyWorkersWithTheCollectorInsideTheFarm(WaitStrategy strategy) {
        runAndCheck(true, strategy);
    }
}
