package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_masterworker.cpp, tests/test_pipe+masterworker.cpp and tests/test_multi_masterworker.cpp: a farm with feedback and an input stream ends once its input ended and every task came back. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MasterWorkerWithInputStreamTest {

    static final class RecordingWorker extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();
        private final long sleepMillis;

        RecordingWorker(long sleepMillis) {
            this.sleepMillis = sleepMillis;
        }

        @Override
        protected Long svc(Long task) throws InterruptedException {
            if (sleepMillis > 0) {
                Thread.sleep(sleepMillis); // a slow worker is the behaviour under test
            }
            seen.add(task);
            return task;
        }
    }

    /** test_masterworker's emitter: forwards input tasks, counts results back, ends when input ended and nothing is out. */
    static final class Master extends MultiInputNode<Long, Long> {
        private boolean inputEnded;
        private long outstanding;
        final List<List<Long>> backPerRun = new ArrayList<>();

        @Override
        protected void svcInit() {
            inputEnded = false;
            outstanding = 0;
            backPerRun.add(new ArrayList<>());
        }

        @Override
        protected Long svc(Long task) {
            if (!fromFeedback()) {
                outstanding++;
                return task;
            }
            backPerRun.get(backPerRun.size() - 1).add(task);
            return --outstanding == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos());
            }
        }
    }

    @Test
    void shouldReturnEveryOffloadedTaskInEachOfThreeRunsOfTheSameFarm() {
        int streamLength = 1000;
        List<Long> stream = LongStream.range(0, streamLength).boxed().toList();
        List<RecordingWorker> workers = List.of(new RecordingWorker(0), new RecordingWorker(0), new RecordingWorker(0));
        Master master = new Master();
        Pipeline pipe = new Pipeline(
                Node.source(stream), Farm.of(workers).emitter(master).wrapAround());

        // FastFlow runs the accelerator three times (run_then_freeze / wait_freezing); here the block is run again
        for (int iteration = 0; iteration < 3; iteration++) {
            pipe.runAndWaitEnd();
        }

        assertThat(master.backPerRun).hasSize(3).allSatisfy(back -> assertThat(back)
                .containsExactlyInAnyOrderElementsOf(stream));
        List<Long> allSeen = new ArrayList<>();
        workers.forEach(w -> allSeen.addAll(w.seen));
        assertThat(allSeen).hasSize(3 * streamLength);
    }

    /** Sends even tasks (incremented, so odd) to the workers; odd ones from the input are dropped; odd ones from the workers are results. */
    static final class OddEvenMaster extends MultiInputNode<Long, Long> {
        private boolean inputEnded;
        private long outstanding;
        final List<Long> results = new ArrayList<>();
        long droppedFromInput;

        @Override
        protected Long svc(Long t) {
            if (t % 2 != 0) {
                if (fromFeedback()) {
                    results.add(t);
                    if (--outstanding == 0 && inputEnded) {
                        return eos();
                    }
                } else {
                    droppedFromInput++;
                }
                return goOn();
            }
            outstanding++;
            return t + 1;
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos());
            }
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long t) {
            return t;
        }
    }

    private static List<Long> oddsUpTo(long max) {
        return LongStream.rangeClosed(1, max).filter(v -> v % 2 != 0).boxed().toList();
    }

    @Test
    void shouldRunAMasterWorkerFarmAsTheLastStageOfAPipeline() {
        List<Long> stream = LongStream.range(0, 1000).boxed().toList();
        Farm farm1 = Farm.of(3, Pass::new).collector(new Pass()); // add_collector(NULL): a default collector
        List<RecordingWorker> workers2 =
                List.of(new RecordingWorker(0), new RecordingWorker(0), new RecordingWorker(0));
        OddEvenMaster master = new OddEvenMaster();
        Farm farm2 = Farm.of(workers2).emitter(master).wrapAround();
        new Pipeline(Node.source(stream), farm1, farm2).runAndWaitEnd();

        List<Long> seen = new ArrayList<>();
        workers2.forEach(w -> seen.addAll(w.seen));
        assertThat(seen).containsExactlyInAnyOrderElementsOf(oddsUpTo(999));
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(oddsUpTo(999));
        assertThat(master.droppedFromInput).isEqualTo(500);
    }

    /** Main emitter of test_multi_masterworker: the stream 1..n, then EOS. */
    static final class MainEmitter extends Node<Void, Long> {
        private final int length;

        MainEmitter(int length) {
            this.length = length;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= length; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    @Test
    void shouldEndAnOnDemandFarmWhoseWorkersAreMasterWorkerFarms() {
        int length = 1000;
        List<OddEvenMaster> masters = new ArrayList<>();
        List<RecordingWorker> allWorkers = new ArrayList<>();
        List<Farm> innerFarms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            OddEvenMaster master = new OddEvenMaster();
            RecordingWorker a = new RecordingWorker(1);
            RecordingWorker b = new RecordingWorker(1);
            masters.add(master);
            allWorkers.add(a);
            allWorkers.add(b);
            innerFarms.add(Farm.of(a, b).emitter(master).wrapAround());
        }
        Farm.of(innerFarms).emitter(new MainEmitter(length)).onDemand().runAndWaitEnd();

        List<Long> expected = LongStream.rangeClosed(1, length)
                .filter(v -> v % 2 == 0)
                .map(v -> v + 1)
                .boxed()
                .toList();
        List<Long> seen = new ArrayList<>();
        allWorkers.forEach(w -> seen.addAll(w.seen));
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        List<Long> results = new ArrayList<>();
        masters.forEach(m -> results.addAll(m.results));
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected);
        // every inner master dropped the odd input tasks it was handed
        assertThat(masters.stream().mapToLong(m -> m.droppedFromInput).sum()).isEqualTo(length / 2);
    }
}
