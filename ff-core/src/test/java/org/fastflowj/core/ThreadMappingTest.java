package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** threadMapping pins node threads to CPUs when it can, and never breaks a run when it cannot. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadMappingTest {

    /** A sink that records, on its own thread, the CPU set the OS lets it run on. */
    static final class AffinityProbe extends Node<Integer, Void> {
        final List<Integer> items = Collections.synchronizedList(new ArrayList<>());
        final Map<String, BitSet> affinity;

        AffinityProbe(Map<String, BitSet> affinity) {
            this.affinity = affinity;
        }

        @Override
        protected void svcInit() {
            affinity.put(Thread.currentThread().getName(), net.openhft.affinity.Affinity.getAffinity());
        }

        @Override
        protected Void svc(Integer in) {
            items.add(in);
            return goOn();
        }
    }

    /** A source that records its CPU set like {@link AffinityProbe}. */
    static final class ProbingSource extends Node<Void, Integer> {
        private final Map<String, BitSet> affinity;
        private int next;

        ProbingSource(Map<String, BitSet> affinity) {
            this.affinity = affinity;
        }

        @Override
        protected void svcInit() {
            affinity.put(Thread.currentThread().getName(), net.openhft.affinity.Affinity.getAffinity());
        }

        @Override
        protected Integer svc(Void none) {
            return next < 100 ? Integer.valueOf(next++) : eos();
        }
    }

    private static BitSet only(int cpu) {
        BitSet set = new BitSet();
        set.set(cpu);
        return set;
    }

    @Test
    void shouldPinStagesToTheListedCpusWhenPinningWorks() {
        Map<String, BitSet> affinity = new ConcurrentHashMap<>();
        AffinityProbe sink = new AffinityProbe(affinity);
        Pipeline pipe = new Pipeline(new ProbingSource(affinity), sink);

        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping("0,1"));

        assertThat(sink.items).containsExactlyElementsOf(ints(100));
        List<Integer> cpus = pipe.stats().nodes().stream().map(NodeStats::cpu).toList();
        assertThat(cpus)
                .as("pinned to 0 and 1, or (pinning unavailable) not at all")
                .isIn(List.of(0, 1), List.of(-1, -1));
        if (cpus.get(0) == 0) {
            // the stats must not claim a pinning the OS does not apply
            assertThat(affinity.get("ff-pipe1-stage0")).isEqualTo(only(0));
            assertThat(affinity.get("ff-pipe1-stage1")).isEqualTo(only(1));
        }
    }

    @Test
    void shouldCycleThroughTheCpuListWhenThereAreMoreThreadsThanCpus() {
        Map<String, BitSet> affinity = new ConcurrentHashMap<>();
        Pipeline pipe = new Pipeline(
                new ProbingSource(affinity),
                Node.of((Integer x) -> x),
                Node.of((Integer x) -> x),
                new AffinityProbe(affinity));

        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping("1,0"));

        List<Integer> cpus = pipe.stats().nodes().stream().map(NodeStats::cpu).toList();
        assertThat(cpus).isIn(List.of(1, 0, 1, 0), List.of(-1, -1, -1, -1));
    }

    @Test
    void shouldCompleteWhenAListedCpuDoesNotExist() {
        AffinityProbe sink = new AffinityProbe(new ConcurrentHashMap<>());
        Pipeline pipe = new Pipeline(source(100), sink);

        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping("0,99"));

        assertThat(sink.items).containsExactlyElementsOf(ints(100));
        assertThat(Runtime.getRuntime().availableProcessors()).isLessThan(100);
        assertThat(pipe.stats().node("ff-pipe1-stage1").orElseThrow().cpu())
                .as("CPU 99 is absent")
                .isEqualTo(-1);
        assertThat(pipe.stats().node("ff-pipe1-stage0").orElseThrow().cpu()).isIn(0, -1);
    }

    @Test
    void shouldNotPinWithAnEmptyMapping() {
        Pipeline pipe = new Pipeline(source(10), new AffinityProbe(new ConcurrentHashMap<>()));

        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping(""));

        assertThat(pipe.stats().nodes()).extracting(NodeStats::cpu).containsOnly(-1);
    }

    @Test
    void shouldPinEachThreadToACpuOfItsOwnWithAuto() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        Map<String, BitSet> affinity = new ConcurrentHashMap<>();
        AffinityProbe sink = new AffinityProbe(affinity);
        Pipeline pipe = new Pipeline(new ProbingSource(affinity), sink);

        pipe.runAndWaitEnd(RunOptions.defaults().threadMapping("auto"));

        assertThat(sink.items).containsExactlyElementsOf(ints(100));
        List<Integer> cpus = pipe.stats().nodes().stream().map(NodeStats::cpu).toList();
        if (cpus.equals(List.of(-1, -1))) {
            return; // pinning unavailable on this platform: the run still works
        }
        BitSet allowed = net.openhft.affinity.Affinity.getAffinity();
        assertThat(cpus).doesNotHaveDuplicates().allMatch(allowed::get);
        assertThat(affinity.get("ff-pipe1-stage0")).isEqualTo(only(cpus.get(0)));
        assertThat(affinity.get("ff-pipe1-stage1")).isEqualTo(only(cpus.get(1)));
    }

    /** A lone source pinned to one CPU that runs a two-stage pipeline of its own with {@code mapping}. */
    private static final class NestedRun extends Node<Void, Integer> {
        final CompletableFuture<List<Integer>> innerCpus = new CompletableFuture<>();
        private final String mapping;

        NestedRun(String mapping) {
            this.mapping = mapping;
        }

        @Override
        protected Integer svc(Void none) {
            Pipeline inner = new Pipeline(StreamFixtures.source(10), new AffinityProbe(new ConcurrentHashMap<>()));
            inner.runAndWaitEnd(RunOptions.defaults().threadMapping(mapping));
            innerCpus.complete(
                    inner.stats().nodes().stream().map(NodeStats::cpu).toList());
            return eos();
        }
    }

    @Test
    void shouldSpreadARunStartedFromAPinnedNodeOverTheProcessCpusNotTheNodesOne() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        NestedRun outer = new NestedRun("auto");
        outer.runAndWaitEnd(RunOptions.defaults().threadMapping("0"));
        assumeTrue(outer.stats().nodes().get(0).cpu() == 0, "pinning unavailable on this platform");

        assertThat(outer.innerCpus.get(20, TimeUnit.SECONDS))
                .doesNotHaveDuplicates()
                .doesNotContain(-1);
    }

    @Test
    void shouldPinARunStartedFromAPinnedThreadToEveryListedCpuTheProcessMayUse() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        NestedRun outer = new NestedRun("0,1");
        outer.runAndWaitEnd(RunOptions.defaults().threadMapping("0"));
        assumeTrue(outer.stats().nodes().get(0).cpu() == 0, "pinning unavailable on this platform");

        // The inner threads start with their creator's one-CPU mask; CPU 1 is still the process's.
        assertThat(outer.innerCpus.get(20, TimeUnit.SECONDS)).containsExactly(0, 1);
    }

    /** A lone source that emits one item once released, and reports the CPU its thread runs on. */
    private static final class HeldSource extends Node<Void, Integer> {
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<Integer> cpu = new CompletableFuture<>();

        @Override
        protected void svcInit() {
            BitSet set = net.openhft.affinity.Affinity.getAffinity();
            cpu.complete(set.cardinality() == 1 ? set.nextSetBit(0) : -1);
        }

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            release.await();
            return eos();
        }
    }

    @Test
    void shouldGiveAnAutoPinnedThreadTheCpuLeastUsedByOtherRunsAndFreeItWhenItEnds() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        RunOptions auto = RunOptions.defaults().threadMapping("auto");
        HeldSource first = new HeldSource();
        HeldSource second = new HeldSource();
        HeldSource third = new HeldSource();
        first.run(auto);
        try {
            int firstCpu = first.cpu.get(20, TimeUnit.SECONDS);
            assumeTrue(firstCpu >= 0, "pinning unavailable on this platform");
            second.run(auto);
            int secondCpu = second.cpu.get(20, TimeUnit.SECONDS);
            assertThat(secondCpu).as("a CPU no other run holds").isNotEqualTo(firstCpu);

            second.release.countDown();
            second.waitEnd();
            third.run(auto);
            assertThat(third.cpu.get(20, TimeUnit.SECONDS))
                    .as("the CPU the ended run gave back, not the one still held")
                    .isEqualTo(secondCpu);
        } finally {
            for (HeldSource held : List.of(first, second, third)) {
                held.release.countDown();
            }
            first.waitEnd();
            third.waitEnd();
        }
    }

    @Test
    void shouldRejectANonNumericCpuNamingIt() {
        assertThatThrownBy(() -> RunOptions.defaults().threadMapping("a,b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a'")
                .hasMessageContaining("\"auto\"");
    }

    @Test
    void shouldRejectANegativeCpuNamingIt() {
        assertThatThrownBy(() -> RunOptions.defaults().threadMapping("0,-3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'-3'");
    }

    @Test
    void shouldAcceptSpacesAroundCpuNumbers() {
        assertThat(RunOptions.defaults().threadMapping(" 0 , 1 ").cpus()).containsExactly(0, 1);
    }
}
