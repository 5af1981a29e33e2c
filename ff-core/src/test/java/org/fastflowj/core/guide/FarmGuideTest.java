package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: the farm and its policies (docs/building-blocks.md, "Farm"). */
@Timeout(60)
class FarmGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next < count ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = new ArrayList<>();

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }
    }

    static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    // tag::default[]
    static final class Square extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x * x;
        }
    }
    // end::default[]

    @Test
    void shouldProcessEveryItemOnceInADefaultFarm() {
        // tag::default-run[]
        Collect<Integer> sink = new Collect<>();
        new Pipeline(new Numbers(100), Farm.of(4, Square::new), sink).runAndWaitEnd();

        // the workers run in parallel: every result arrives once, in no particular order
        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        range(0, 100).stream().map(x -> x * x).toList());
        // end::default-run[]
    }

    // tag::emitter-collector[]
    /** Emitter of a farm with no input: it is the farm's source. */
    static final class Sentences extends Node<Void, String> {
        @Override
        protected String svc(Void none) {
            sendOut("the quick brown fox");
            sendOut("jumps over");
            sendOut("the lazy dog");
            return eos();
        }
    }

    static final class CountWords extends Node<String, Integer> {
        @Override
        protected Integer svc(String sentence) {
            return sentence.split(" ").length;
        }
    }

    /** Collector: gathers every worker's output; here it sums and reports in svcEnd. */
    static final class Sum extends Node<Integer, Void> {
        int total;

        @Override
        protected Void svc(Integer count) {
            total += count;
            return goOn();
        }
    }
    // end::emitter-collector[]

    @Test
    void shouldGatherWorkerOutputsInTheCollector() {
        // tag::emitter-collector-run[]
        Sum sum = new Sum();
        Farm.of(3, CountWords::new).emitter(new Sentences()).collector(sum).runAndWaitEnd();

        assertThat(sum.total).isEqualTo(9);
        // end::emitter-collector-run[]
    }

    @Test
    void shouldDealTasksInTurnWithRoundRobin() {
        // tag::round-robin[]
        Farm farm = Farm.of(3, Square::new).roundRobin(); // the default policy
        Pipeline pipe = new Pipeline(new Numbers(30), farm, new Collect<Integer>());
        pipe.runAndWaitEnd();

        // no queue ever filled up here, so each worker got exactly every third task
        assertThat(pipe.stats().nodes())
                .filteredOn(n -> n.name().startsWith("ff-farm1-worker"))
                .extracting(NodeStats::itemsIn)
                .containsExactly(10L, 10L, 10L);
        // end::round-robin[]
    }

    // tag::on-demand[]
    /** Worker 0 is stuck in its first task until worker 1 has done `others` tasks. */
    static final class StuckOrFast extends Node<Integer, Integer> {
        private final CountDownLatch others;

        StuckOrFast(CountDownLatch others) {
            this.others = others;
        }

        @Override
        protected Integer svc(Integer task) throws InterruptedException {
            if (id() == 0) {
                others.await(30, TimeUnit.SECONDS);
            } else {
                others.countDown();
            }
            return task;
        }
    }
    // end::on-demand[]

    @Test
    void shouldGiveTasksOnlyToWorkersWithAFreeSlotOnDemand() {
        // tag::on-demand-run[]
        int tasks = 100;
        CountDownLatch others = new CountDownLatch(tasks - 2);
        Farm farm = Farm.of(2, () -> new StuckOrFast(others)).onDemand(); // 1 slot per worker
        Pipeline pipe = new Pipeline(new Numbers(tasks), farm, new Collect<Integer>());
        pipe.runAndWaitEnd();

        // worker 0 got the task it is stuck on and at most one more, queued in its single slot;
        // with round-robin it would have been handed half of them
        long stuck = pipe.stats().node("ff-farm1-worker0").orElseThrow().itemsIn();
        long fast = pipe.stats().node("ff-farm1-worker1").orElseThrow().itemsIn();
        assertThat(stuck).isBetween(1L, 2L);
        assertThat(fast).isEqualTo(tasks - stuck);
        // end::on-demand-run[]
    }

    // tag::ordered[]
    /** Out of order on purpose: sleeps longer for some items. Filters multiples of 5, doubles evens. */
    static final class Uneven extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) throws InterruptedException {
            Thread.sleep(x % 4);
            if (x % 5 == 0) {
                return goOn(); // no output for this task
            }
            if (x % 2 == 0) {
                sendOut(x); // two outputs for this task
                return -x;
            }
            return x;
        }
    }
    // end::ordered[]

    @Test
    void shouldKeepInputOrderInAnOrderedFarm() {
        // tag::ordered-run[]
        Collect<Integer> sink = new Collect<>();
        Farm farm = Farm.of(4, Uneven::new).ordered(16); // at most 16 tasks in flight
        new Pipeline(new Numbers(40), farm, sink).runAndWaitEnd();

        List<Integer> expected = new ArrayList<>();
        for (int x = 0; x < 40; x++) {
            if (x % 5 == 0) {
                continue;
            }
            expected.add(x);
            if (x % 2 == 0) {
                expected.add(-x);
            }
        }
        assertThat(sink.items).containsExactlyElementsOf(expected);
        // end::ordered-run[]
    }

    // tag::routing[]
    /** An emitter that keeps every key on one worker, so a worker can hold per-key state. */
    static final class ByKey extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String word) {
            sendOutTo(word, Math.floorMod(word.charAt(0), outputChannels()));
            return goOn();
        }
    }

    /** Counts the words it sees; runs on one worker thread, so plain fields are fine. */
    static final class WordCount extends Node<String, Void> {
        final Map<String, Integer> counts = new TreeMap<>();

        @Override
        protected Void svc(String word) {
            counts.merge(word, 1, Integer::sum);
            return goOn();
        }
    }
    // end::routing[]

    static final class WordSource extends Node<Void, String> {
        @Override
        protected String svc(Void none) {
            for (String w : "a b c a b a d e f d a".split(" ")) {
                sendOut(w);
            }
            return eos();
        }
    }

    @Test
    void shouldRouteByKeyFromAMultiOutputEmitter() {
        // tag::routing-run[]
        List<WordCount> workers = List.of(new WordCount(), new WordCount(), new WordCount());
        new Pipeline(new WordSource(), Farm.of(workers).emitter(new ByKey())).runAndWaitEnd();

        // 'a'=97 -> 1, 'b' -> 2, 'c' -> 0, 'd' -> 1, 'e' -> 2, 'f' -> 0
        assertThat(workers.get(0).counts).containsExactly(entry("c", 1), entry("f", 1));
        assertThat(workers.get(1).counts).containsExactly(entry("a", 4), entry("d", 2));
        assertThat(workers.get(2).counts).containsExactly(entry("b", 2), entry("e", 1));
        // end::routing-run[]
    }

    // tag::master-worker[]
    /** Emitter and loop head: hands out tasks, collects results from the feedback channel, then ends. */
    static final class Master extends Node<Long, Integer> {
        private final int tasks;
        private int received;
        long sum;

        Master(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Integer svc(Long result) {
            if (result == null) { // called once with null: start the work
                for (int i = 1; i <= tasks; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            sum += result; // a result came back on the feedback channel
            return ++received < tasks ? goOn() : eos(); // all back: EOS to the workers ends the farm
        }
    }

    static final class Cube extends Node<Integer, Long> {
        @Override
        protected Long svc(Integer x) {
            return (long) x * x * x; // goes back to the master (no collector)
        }
    }
    // end::master-worker[]

    @Test
    void shouldCollectResultsThroughTheFeedbackChannel() {
        // tag::master-worker-run[]
        Master master = new Master(50);
        Farm.of(4, Cube::new).emitter(master).wrapAround().runAndWaitEnd();

        assertThat(master.sum).isEqualTo(1_625_625L); // 1^3 + 2^3 + ... + 50^3
        // end::master-worker-run[]
    }

    // tag::feedback-with-input[]
    /** Emitter of a farm that has both an input stream and a feedback channel. */
    static final class Dispatcher extends MultiInputNode<Integer, Integer> {
        private boolean inputEnded;
        private int pending;
        final List<Integer> done = new ArrayList<>();

        @Override
        protected Integer svc(Integer item) {
            if (!fromFeedback()) { // a new task from the stream
                pending++;
                return item;
            }
            done.add(item); // a result from a worker
            pending--;
            return inputEnded && pending == 0 ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) { // the forward input ended; feedback goes on
            inputEnded = true;
            if (pending == 0) {
                sendOut(eos()); // nothing in flight: end now
            }
        }
    }
    // end::feedback-with-input[]

    @Test
    void shouldEndAFeedbackFarmWhenItsEmitterSaysSo() {
        // tag::feedback-with-input-run[]
        Dispatcher dispatcher = new Dispatcher();
        Farm farm = Farm.of(3, Square::new).emitter(dispatcher).wrapAround();
        new Pipeline(new Numbers(20), farm).runAndWaitEnd();

        assertThat(dispatcher.done)
                .containsExactlyInAnyOrderElementsOf(
                        range(0, 20).stream().map(x -> x * x).toList());
        // end::feedback-with-input-run[]
    }

    /** An infinite source: it stops only because its consumer ended. */
    static final class Naturals extends Node<Void, Integer> {
        private int next;

        @Override
        protected Integer svc(Void none) {
            return next++;
        }
    }

    static final class Take<T> extends Node<T, T> {
        private final int limit;
        private int taken;

        Take(int limit) {
            this.limit = limit;
        }

        @Override
        protected T svc(T item) {
            return taken++ < limit ? item : eos();
        }
    }

    /**
     * Early termination through an ordered farm, as through every other block. Fails on ff-core as of main
     * 598eac6: the collector never marks the order channel ended, so the emitter waits for room on it forever.
     */
    @Test
    @Timeout(10)
    void shouldEndAnOrderedFarmWhenItsConsumerEnds() {
        Collect<Integer> sink = new Collect<>();
        new Pipeline(new Naturals(), Farm.of(2, Square::new).ordered(8), new Take<Integer>(5), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(0, 1, 4, 9, 16);
    }

    /** A collector that is a multi-output node: finished items go forward, the others back to the emitter. */
    static final class Sorter extends MultiOutputNode<Integer, Integer> {
        static final int DONE = -1;

        @Override
        protected Integer svc(Integer x) {
            if (x < 100) {
                sendFeedbackTo(x, 0); // not done: once more through the farm
            } else {
                sendOutTo(x, 0); // done: on to the next stage,
                sendFeedbackTo(DONE, 0); // and the emitter is told
            }
            return goOn();
        }
    }

    /** Emitter: new tasks from the stream, unfinished ones from the feedback channel. */
    static final class Again extends MultiInputNode<Integer, Integer> {
        private boolean inputEnded;
        private int pending;

        @Override
        protected Integer svc(Integer x) {
            if (!fromFeedback()) {
                pending++;
                return x;
            }
            if (x == Sorter.DONE) {
                pending--;
                return inputEnded && pending == 0 ? eos() : goOn();
            }
            return x;
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (pending == 0) {
                sendOut(eos());
            }
        }
    }

    /**
     * A wrapped-around farm whose collector sends both forward and back, followed by another stage, as
     * FastFlow allows and as MultiOutputNode's sendOutTo/sendFeedbackTo suggest. Fails on ff-core as of main
     * 598eac6: GraphCompiler gives every wrapped-around block no exits, so the next stage is rejected with
     * "needs an input, but ... has no output", and no node can have forward and feedback outputs at once.
     */
    @Test
    void shouldLetAWrappedFarmCollectorSendForwardAndBack() {
        Collect<Integer> sink = new Collect<>();
        Farm farm = Farm.of(2, () -> Node.of((Integer x) -> 2 * x + 1))
                .emitter(new Again())
                .collector(new Sorter())
                .wrapAround();
        new Pipeline(new Numbers(10), farm, sink).runAndWaitEnd();

        // x -> 2x + 1 until it reaches 100: 0, 1, 3, 7 end at 127, 2 and 5 at 191, 4 and 9 at 159, ...
        assertThat(sink.items).containsExactlyInAnyOrder(111, 127, 127, 127, 127, 143, 159, 159, 191, 191);
    }
}
