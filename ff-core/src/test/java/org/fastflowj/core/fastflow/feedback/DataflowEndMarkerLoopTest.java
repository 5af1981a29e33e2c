package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_dataflow2.cpp: MU sends numtasks instructions then an end marker into a
 * wrapped farm (queues of 10) whose scheduler counts the instructions in flight, never passes the marker to
 * the functional units, and ends once the marker came and every instruction came back from the units
 * (also with each unit a two-stage pipeline, prefetcher then unit: TEST_INNER_PIPELINE).
 *
 * <p>Partly mirrored: the scheduler's input throttling (input_active(false) after every 5 inputs, then 5 calls
 * of svc(NULL) before reading again) is outside our API, so the scheduler reads its input freely.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DataflowEndMarkerLoopTest {
    private static final int NUMTASKS = 1000;
    private static final int NW = 3;

    /** An instruction: op 0 is the end marker. */
    record Instr(int op, long t) {}

    static final class Mu extends Node<Void, Instr> {
        @Override
        protected Instr svc(Void none) {
            for (long i = 1; i <= NUMTASKS; i++) {
                sendOut(new Instr(1, i % 10));
            }
            sendOut(new Instr(0, -1));
            return eos();
        }
    }

    /** Emitter and loop head: forwards instructions, ends on the marker once nothing is in flight. */
    static final class Scheduler extends MultiInputNode<Instr, Instr> {
        int inFlight;
        int fromInput;
        int back;
        boolean finished;
        boolean wentNegative;
        boolean inputEosSeen;

        @Override
        protected Instr svc(Instr task) {
            if (!fromFeedback()) {
                if (task.op() == 0) {
                    finished = true;
                    return inFlight == 0 ? eos() : goOn();
                }
                inFlight++;
                fromInput++;
                return task;
            }
            back++;
            if (--inFlight < 0) {
                wentNegative = true;
            }
            return inFlight == 0 && finished ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEosSeen = true; // the C++ scheduler never reads MU's EOS: the marker ends it
        }
    }

    /** Functional unit: sleeps a little per instruction and sends it back. */
    static final class Fu extends Node<Instr, Instr> {
        final List<Instr> got = new ArrayList<>();

        @Override
        protected Instr svc(Instr task) {
            got.add(task);
            LockSupport.parkNanos(10_000);
            return task;
        }
    }

    static final class Prefetcher extends Node<Instr, Instr> {
        @Override
        protected Instr svc(Instr task) {
            return task;
        }
    }

    private static void runAndCheck(WaitStrategy strategy, Function<Fu, BuildingBlock> worker) {
        Scheduler scheduler = new Scheduler();
        List<Fu> fus = new ArrayList<>();
        List<BuildingBlock> workers = new ArrayList<>();
        for (int i = 0; i < NW; i++) {
            Fu fu = new Fu();
            fus.add(fu);
            workers.add(worker.apply(fu));
        }
        Farm farm = Farm.of(workers).emitter(scheduler).wrapAround();
        new Pipeline(new Mu(), farm)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(10));

        assertThat(scheduler.finished).isTrue();
        assertThat(scheduler.fromInput).isEqualTo(NUMTASKS);
        assertThat(scheduler.back).isEqualTo(NUMTASKS);
        assertThat(scheduler.inFlight).isZero();
        assertThat(scheduler.wentNegative).isFalse();
        List<Instr> run = fus.stream().flatMap(f -> f.got.stream()).toList();
        assertThat(run).hasSize(NUMTASKS).allMatch(i -> i.op() == 1); // the marker never reached a unit
        Map<Long, Long> perValue = run.stream().collect(Collectors.groupingBy(Instr::t, Collectors.counting()));
        Map<Long, Long> expected =
                IntStream.range(0, 10).boxed().collect(Collectors.toMap(Integer::longValue, v -> (long) NUMTASKS / 10));
        assertThat(perValue).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndOnTheMarkerOnceEveryInstructionCameBack(WaitStrategy strategy) {
        runAndCheck(strategy, fu -> fu);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndOnTheMarkerWithPipelinedUnits(WaitStrategy strategy) {
        runAndCheck(strategy, fu -> new Pipeline(new Prefetcher(), fu));
    }
}
