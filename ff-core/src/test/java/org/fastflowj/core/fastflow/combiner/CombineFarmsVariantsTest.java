package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine8.cpp: the shapes combine_farms(farm1, node1, farm2, node2, mergeCE)
 * makes of farm(E1, W1, C1) followed by farm(E2, W2, C2) (an all-to-all inside one farm, fused collector and
 * emitter, the normal form) all deliver every task to C2.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CombineFarmsVariantsTest {

    private static final int NWORKERS1 = 2;
    private static final int NWORKERS2 = 3;
    private static final long NTASKS = 200;
    private static final List<Long> ALL =
            LongStream.rangeClosed(1, NTASKS).boxed().toList();

    /** Sends task i to worker i % nworkers. */
    static final class Emitter1 extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOutTo(i, (int) (i % NWORKERS1));
            }
            return eos();
        }
    }

    /** Workers 0 and 1 are slow (the C++ sleeps 10 ms there); forwards with sendOut. */
    static final class Worker1 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            if (id() == 0 || id() == 1) {
                LockSupport.parkNanos(100_000);
            }
            got.add(in);
            sendOut(in);
            return goOn();
        }
    }

    static final class Worker2 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            return in;
        }
    }

    /** A plain node that records each task and forwards it with sendOut. */
    static class Forwarder extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            sendOut(in);
            return goOn();
        }
    }

    /** farm1's collector. */
    static final class Collector1 extends Forwarder {}

    /** farm1's collector as a multi-input node (TEST4): input channel i is farm1's worker i. */
    static final class MultiInputCollector1 extends MultiInputNode<Long, Long> {
        final List<List<Long>> perChannel = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
            for (int i = 0; i < inputs; i++) {
                perChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Long svc(Long in) {
            perChannel.get(inputChannel()).add(in);
            return in;
        }
    }

    /**
     * farm1's collector doing all_gather (TEST4bis): FastFlow's all_gather waits, inside svc, for one task from
     * every input channel that has not ended. We have no such call, so the node keeps what came early on each
     * channel and sends a round (one task per live channel, in channel order) as soon as every channel has a task
     * or has ended.
     */
    static final class GatheringCollector1 extends MultiInputNode<Long, Long> {
        private final List<List<Long>> pending = new ArrayList<>();
        private final List<Boolean> ended = new ArrayList<>();
        final List<Long> sent = new ArrayList<>();

        @Override
        protected void svcInit() {
            for (int i = 0; i < inputChannels(); i++) {
                pending.add(new ArrayList<>());
                ended.add(false);
            }
        }

        @Override
        protected Long svc(Long in) {
            pending.get(inputChannel()).add(in);
            sendReadyRounds();
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ended.set(channel, true);
            sendReadyRounds();
        }

        private void sendReadyRounds() {
            while (roundReady()) {
                for (List<Long> p : pending) {
                    if (!p.isEmpty()) {
                        Long item = p.remove(0);
                        sent.add(item);
                        sendOut(item);
                    }
                }
            }
        }

        private boolean roundReady() {
            boolean any = false;
            for (int i = 0; i < pending.size(); i++) {
                if (pending.get(i).isEmpty() && !ended.get(i)) {
                    return false;
                }
                any |= !pending.get(i).isEmpty();
            }
            return any;
        }
    }

    /** farm2's emitter. */
    static final class Emitter2 extends Forwarder {}

    /** farm2's emitter as a multi-output node (TEST8): sends its k-th task to worker k % outputChannels(). */
    static final class RotatingEmitter2 extends MultiOutputNode<Long, Long> {
        final List<List<Long>> sentTo = new ArrayList<>();
        private int idx;

        @Override
        protected void svcInit() {
            for (int i = 0; i < outputChannels(); i++) {
                sentTo.add(new ArrayList<>());
            }
        }

        @Override
        protected Long svc(Long in) {
            sendOutTo(in, idx);
            sentTo.get(idx).add(in);
            idx = (idx + 1) % outputChannels();
            return goOn();
        }
    }

    /** A multi-output node that only forwards: what combine_farms fuses after a multi-input C1 (TEST4). */
    static final class MoHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Collector2 extends MultiInputNode<Long, Void> {
        final List<List<Long>> perChannel = new ArrayList<>();
        long ntasks = NTASKS;
        Long leftAtEnd;

        @Override
        protected void svcInit() {
            for (int i = 0; i < inputChannels(); i++) {
                perChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Void svc(Long in) {
            --ntasks;
            perChannel.get(inputChannel()).add(in);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            leftAtEnd = ntasks;
        }

        List<Long> all() {
            return perChannel.stream().flatMap(List::stream).toList();
        }
    }

    private static List<Worker1> workers1(int n) {
        List<Worker1> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            workers.add(new Worker1());
        }
        return workers;
    }

    private static List<Worker2> workers2(int n) {
        List<Worker2> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            workers.add(new Worker2());
        }
        return workers;
    }

    private static List<Long> residue(int k) {
        return ALL.stream().filter(i -> i % NWORKERS1 == k).toList();
    }

    /** Emitter1 routed task i to worker i % 2, and each first-farm worker kept its channel's order. */
    private static void assertRouted(List<Worker1> w1) {
        for (int k = 0; k < w1.size(); k++) {
            assertThat(w1.get(k).got).as("Worker1 %d", k).containsExactlyElementsOf(residue(k));
        }
    }

    private static void assertEveryTaskCollected(Collector2 c2, int channels) {
        assertThat(c2.leftAtEnd).isZero();
        assertThat(c2.all()).containsExactlyInAnyOrderElementsOf(ALL);
        assertThat(c2.perChannel).hasSize(channels);
    }

    private static List<Long> allGot(List<Worker2> w2) {
        return w2.stream().flatMap(w -> w.got.stream()).toList();
    }

    /** TEST1, case 4.1: farm(E1, A2A(comb(W1, C1), comb(E2, W2)), C2), with a copy of C1 and E2 per worker. */
    @Test
    void shouldFuseC1AfterEachFirstWorkerAndE2BeforeEachSecondWorkerInAnAllToAll() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        List<Collector1> c1s = new ArrayList<>();
        List<Emitter2> e2s = new ArrayList<>();
        List<Combiner<Long, Long>> left = new ArrayList<>();
        for (Worker1 w : w1) {
            Collector1 c1 = new Collector1();
            c1s.add(c1);
            left.add(Combiner.of(w, c1));
        }
        List<Combiner<Long, Long>> right = new ArrayList<>();
        for (Worker2 w : w2) {
            Emitter2 e2 = new Emitter2();
            e2s.add(e2);
            right.add(Combiner.of(e2, w));
        }
        Collector2 c2 = new Collector2();
        Farm farm = Farm.of(new AllToAll().firstSet(left).secondSet(right))
                .emitter(new Emitter1())
                .collector(c2);
        farm.runAndWaitEnd();

        assertRouted(w1);
        for (int k = 0; k < NWORKERS1; k++) {
            assertThat(c1s.get(k).got).as("C1 copy %d", k).containsExactlyElementsOf(residue(k));
        }
        for (int j = 0; j < NWORKERS2; j++) {
            assertThat(w2.get(j).got)
                    .as("W2 %d sees what its E2 copy saw", j)
                    .containsExactlyElementsOf(e2s.get(j).got);
        }
        assertThat(allGot(w2)).containsExactlyInAnyOrderElementsOf(ALL);
        assertEveryTaskCollected(c2, NWORKERS2);
        assertThat(farm.stats().nodes()).hasSize(1 + NWORKERS1 + NWORKERS2 + 1);
    }

    /**
     * TEST2 (mergeCE, different widths: falls back to case 1.1) and TEST6 (case 1.1): C1 and E2 are dropped and
     * the workers become farm(E1, A2A(W1, W2), C2).
     */
    @Test
    void shouldDropC1AndE2AndJoinTheWorkerSetsInAnAllToAll() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        Collector2 c2 = new Collector2();
        Farm farm = Farm.of(new AllToAll().firstSet(w1).secondSet(w2))
                .emitter(new Emitter1())
                .collector(c2);
        farm.runAndWaitEnd();

        assertRouted(w1);
        assertThat(allGot(w2)).containsExactlyInAnyOrderElementsOf(ALL);
        assertEveryTaskCollected(c2, NWORKERS2);
        assertThat(farm.stats().nodes()).hasSize(1 + NWORKERS1 + NWORKERS2 + 1);
    }

    /** TEST3, case 4.2: farm1 loses its collector and comb(C1, E2) becomes farm2's emitter. */
    @Test
    void shouldMergeC1AndE2IntoTheSecondFarmsEmitter() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        Collector1 c1 = new Collector1();
        Emitter2 e2 = new Emitter2();
        Collector2 c2 = new Collector2();
        Pipeline pipe = new Pipeline(
                Farm.of(w1).emitter(new Emitter1()),
                Farm.of(w2).emitter(Combiner.of(c1, e2)).collector(c2));
        pipe.runAndWaitEnd();

        assertRouted(w1);
        assertThat(c1.got).containsExactlyInAnyOrderElementsOf(ALL);
        assertThat(e2.got).containsExactlyElementsOf(c1.got);
        assertThat(allGot(w2)).containsExactlyInAnyOrderElementsOf(ALL);
        assertEveryTaskCollected(c2, NWORKERS2);
        assertThat(pipe.stats().nodes()).hasSize(1 + NWORKERS1 + 1 + NWORKERS2 + 1);
    }

    /** TEST4, case 3.2: a multi-input C1 fused with a multi-output helper replaces farm2's emitter (E2 is dropped). */
    @Test
    void shouldMakeTheMultiInputC1TheSecondFarmsEmitter() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        MultiInputCollector1 c1 = new MultiInputCollector1();
        Collector2 c2 = new Collector2();
        Pipeline pipe = new Pipeline(
                Farm.of(w1).emitter(new Emitter1()),
                Farm.of(w2).emitter(Combiner.of(c1, new MoHelper())).collector(c2));
        pipe.runAndWaitEnd();

        assertRouted(w1);
        assertThat(c1.inputs).isEqualTo(NWORKERS1);
        for (int k = 0; k < NWORKERS1; k++) {
            assertThat(c1.perChannel.get(k))
                    .as("C1 channel %d = Worker1 %d", k, k)
                    .containsExactlyElementsOf(residue(k));
        }
        assertThat(allGot(w2)).containsExactlyInAnyOrderElementsOf(ALL);
        assertEveryTaskCollected(c2, NWORKERS2);
    }

    /** TEST4bis, case 4.2 with a gathering multi-input C1 (all_gather emulated, see GatheringCollector1). */
    @Test
    void shouldGatherOneTaskFromEachFirstWorkerPerRound() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        GatheringCollector1 c1 = new GatheringCollector1();
        Emitter2 e2 = new Emitter2();
        Collector2 c2 = new Collector2();
        new Pipeline(
                        Farm.of(w1).emitter(new Emitter1()),
                        Farm.of(w2).emitter(Combiner.of(c1, e2)).collector(c2))
                .runAndWaitEnd();

        assertRouted(w1);
        // channel 0 (worker 0) carries 2, 4, 6, ..., channel 1 carries 1, 3, 5, ...: round r is (2r + 2, 2r + 1)
        List<Long> rounds = new ArrayList<>();
        for (long r = 0; r < NTASKS / 2; r++) {
            rounds.add(2 * r + 2);
            rounds.add(2 * r + 1);
        }
        assertThat(c1.sent).containsExactlyElementsOf(rounds);
        assertThat(e2.got).containsExactlyElementsOf(rounds);
        assertEveryTaskCollected(c2, NWORKERS2);
    }

    /**
     * TEST5, case 2.2: with node1 null, combine_farms removes farm1's collector and resets farm2's emitter to the
     * default one (change_emitter(nullptr)), so the multi-input E2 of the C++ test never runs: farm1's workers feed
     * farm2's default emitter.
     */
    @Test
    void shouldJoinTheFarmsThroughTheDefaultEmitter() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        Collector2 c2 = new Collector2();
        Pipeline pipe =
                new Pipeline(Farm.of(w1).emitter(new Emitter1()), Farm.of(w2).collector(c2));
        pipe.runAndWaitEnd();

        assertRouted(w1);
        assertThat(allGot(w2)).containsExactlyInAnyOrderElementsOf(ALL);
        assertEveryTaskCollected(c2, NWORKERS2);
        assertThat(pipe.stats().nodes()).hasSize(1 + NWORKERS1 + 1 + NWORKERS2 + 1);
    }

    /** TEST7, case 1.2: same widths, so the normal form farm(E1, comb(W1, W2), C2). */
    @Test
    void shouldFuseTheWorkersPairwiseWhenBothFarmsHaveTheSameWidth() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS1);
        List<Combiner<Long, Long>> fused = new ArrayList<>();
        for (int k = 0; k < NWORKERS1; k++) {
            fused.add(Combiner.of(w1.get(k), w2.get(k)));
        }
        Collector2 c2 = new Collector2();
        Farm farm = Farm.of(fused).emitter(new Emitter1()).collector(c2);
        farm.runAndWaitEnd();

        assertRouted(w1);
        for (int k = 0; k < NWORKERS1; k++) {
            assertThat(w2.get(k).got).as("W2 %d fused with Worker1 %d", k, k).containsExactlyElementsOf(residue(k));
            assertThat(c2.perChannel.get(k)).as("C2 channel %d", k).containsExactlyElementsOf(residue(k));
        }
        assertEveryTaskCollected(c2, NWORKERS1);
        assertThat(farm.stats().nodes()).hasSize(1 + NWORKERS1 + 1);
    }

    /** TEST8, case 4.2 with a multi-output E2: comb(C1, E2) is farm2's emitter and E2 picks the workers in turn. */
    @Test
    void shouldLetTheFusedMultiOutputEmitterChooseTheWorkers() {
        List<Worker1> w1 = workers1(NWORKERS1);
        List<Worker2> w2 = workers2(NWORKERS2);
        Collector1 c1 = new Collector1();
        RotatingEmitter2 e2 = new RotatingEmitter2();
        Collector2 c2 = new Collector2();
        BuildingBlock pipe = new Pipeline(
                Farm.of(w1).emitter(new Emitter1()),
                Farm.of(w2).emitter(Combiner.of(c1, e2)).collector(c2));
        pipe.runAndWaitEnd();

        assertRouted(w1);
        assertThat(e2.sentTo).hasSize(NWORKERS2);
        for (int j = 0; j < NWORKERS2; j++) {
            assertThat(w2.get(j).got).as("W2 %d", j).containsExactlyElementsOf(e2.sentTo.get(j));
            assertThat(c2.perChannel.get(j)).as("C2 channel %d", j).containsExactlyElementsOf(e2.sentTo.get(j));
        }
        // the k-th task through C1 went to worker k % 3
        for (int k = 0; k < c1.got.size(); k++) {
            assertThat(e2.sentTo.get(k % NWORKERS2).get(k / NWORKERS2)).isEqualTo(c1.got.get(k));
        }
        assertThat(w2.stream().map(w -> w.got.size())).containsExactly(67, 67, 66);
        assertEveryTaskCollected(c2, NWORKERS2);
    }
}
