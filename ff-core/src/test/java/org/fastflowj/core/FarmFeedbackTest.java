package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Farm with wrapAround(): workers (or the collector) feed results back to the emitter. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FarmFeedbackTest {
    private static RunOptions options(WaitStrategy strategy) {
        return RunOptions.defaults().waitStrategy(strategy);
    }

    record Result(int worker, int value) {}

    /** A worker squaring its task and saying who it is. */
    private static final class Squarer extends Node<Integer, Result> {
        @Override
        protected Result svc(Integer x) {
            return new Result(id(), x * x);
        }
    }

    /**
     * Heads the loop: svc(null) once sends {@code n} tasks, then counts results coming back and ends the
     * loop when all are back.
     */
    private static final class Master extends MultiInputNode<Object, Integer> {
        private final int n;
        private final boolean channelIsWorker;
        final List<Integer> results = Collections.synchronizedList(new ArrayList<>());
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        volatile int startCalls;
        volatile int forwardChannelsSeen = -1;
        volatile int feedbackChannelsSeen = -1;
        private int back;

        private final int stopAfter;

        Master(int n, boolean channelIsWorker) {
            this(n, channelIsWorker, n);
        }

        /** Sends {@code n} tasks but ends the loop after {@code stopAfter} results. */
        Master(int n, boolean channelIsWorker, int stopAfter) {
            this.n = n;
            this.channelIsWorker = channelIsWorker;
            this.stopAfter = stopAfter;
        }

        @Override
        protected Integer svc(Object in) {
            if (in == null) {
                startCalls++;
                for (int i = 0; i < n; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            Result r = (Result) in;
            if (!fromFeedback()) {
                errors.add("result " + r + " not marked as feedback");
            }
            int expectedChannel = channelIsWorker ? r.worker() : 0;
            if (inputChannel() != expectedChannel) {
                errors.add("result " + r + " on channel " + inputChannel() + ", expected " + expectedChannel);
            }
            forwardChannelsSeen = inputChannels();
            feedbackChannelsSeen = feedbackChannels();
            results.add(r.value());
            return ++back == stopAfter ? eos() : goOn();
        }
    }

    private static List<Integer> squares(int n) {
        return IntStream.range(0, n).map(x -> x * x).boxed().toList();
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndWhenTheEmitterHasCollectedEveryResultFromTheWorkers(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, true);
        Farm.of(3, Squarer::new).emitter(master).wrapAround().runAndWaitEnd(options(strategy));

        assertThat(master.startCalls).as("svc(null) starts the loop once").isEqualTo(1);
        assertThat(master.errors).isEmpty();
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(squares(n));
        assertThat(master.forwardChannelsSeen).isZero();
        assertThat(master.feedbackChannelsSeen).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldFeedTheCollectorsOutputBackToTheEmitter(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, false);
        AtomicInteger collected = new AtomicInteger();
        Node<Result, Result> collector = Node.of(r -> {
            collected.incrementAndGet();
            return r;
        });
        Farm.of(3, Squarer::new)
                .emitter(master)
                .collector(collector)
                .wrapAround()
                .runAndWaitEnd(options(strategy));

        assertThat(master.startCalls).isEqualTo(1);
        assertThat(master.errors).isEmpty();
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(squares(n));
        assertThat(master.feedbackChannelsSeen).isEqualTo(1);
        assertThat(collected.get()).isEqualTo(n);
    }

    // ------------------------------------------------------------------ input stream and feedback

    /** A job needing {@code remaining} more rounds of work. */
    record Job(int id, int remaining) {}

    /** One round of work: decrements the job's counter. Job 0's first round waits for {@code gate}. */
    private static final class Decrementer extends Node<Job, Job> {
        private final AtomicInteger rounds;
        private final CountDownLatch gate;
        private final List<String> errors;

        Decrementer(AtomicInteger rounds, CountDownLatch gate, List<String> errors) {
            this.rounds = rounds;
            this.gate = gate;
            this.errors = errors;
        }

        @Override
        protected Job svc(Job job) throws InterruptedException {
            rounds.incrementAndGet();
            if (job.id() == 0 && gate != null && gate.getCount() > 0 && !gate.await(30, TimeUnit.SECONDS)) {
                errors.add("the emitter never saw the end of its input");
            }
            return new Job(job.id(), job.remaining() - 1);
        }
    }

    /**
     * Master-worker: forwards input jobs to the workers, re-submits jobs coming back with rounds left, and
     * ends the loop itself once the input ended and no job is outstanding.
     */
    private static final class JobMaster extends MultiInputNode<Job, Job> {
        final List<Integer> finished = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> endedChannels = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch inputEnded = new CountDownLatch(1);
        final CountDownLatch allFinished;
        private final int expected;
        volatile int feedbackAfterInputEnded;
        volatile int endedFromEosNotify;
        private int outstanding;

        JobMaster(int expected) {
            this.expected = expected;
            this.allFinished = new CountDownLatch(1);
        }

        @Override
        protected Job svc(Job job) {
            if (!fromFeedback()) {
                outstanding++;
                return job;
            }
            if (inputEnded.getCount() == 0) {
                feedbackAfterInputEnded++;
            }
            if (job.remaining() > 0) {
                return job; // another round
            }
            finished.add(job.id());
            outstanding--;
            if (finished.size() == expected) {
                allFinished.countDown();
            }
            return inputEnded.getCount() == 0 && outstanding == 0 ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            endedChannels.add(channel);
            inputEnded.countDown();
            if (outstanding == 0) {
                endedFromEosNotify++;
                sendOut(eos());
            }
        }
    }

    private static int rounds(int id) {
        return id % 5 + 1;
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepTheEmitterRunningAfterItsInputEndedUntilItEndsTheLoop(WaitStrategy strategy) {
        int m = 500;
        JobMaster master = new JobMaster(m);
        AtomicInteger rounds = new AtomicInteger();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        // job 0 is held by its worker until the emitter has seen EOS: feedback must still flow afterwards
        Farm farm = Farm.of(3, () -> new Decrementer(rounds, master.inputEnded, errors))
                .emitter(master)
                .wrapAround();
        new Pipeline(StreamFixtures.generate(0, m, id -> new Job(id, rounds(id))), farm)
                .runAndWaitEnd(options(strategy));

        assertThat(errors).isEmpty();
        assertThat(master.endedChannels).containsExactly(0);
        assertThat(master.finished).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, m));
        assertThat(rounds.get())
                .isEqualTo(IntStream.range(0, m).map(FarmFeedbackTest::rounds).sum());
        assertThat(master.feedbackAfterInputEnded).isPositive();
    }

    /** Emits its jobs, then waits until they are all finished before it ends the stream. */
    private static final class PatientSource extends Node<Void, Job> {
        private final int m;
        private final JobMaster master;
        private final List<String> errors;
        private int next;

        PatientSource(int m, JobMaster master, List<String> errors) {
            this.m = m;
            this.master = master;
            this.errors = errors;
        }

        @Override
        protected Job svc(Void none) throws InterruptedException {
            if (next < m) {
                int id = next++;
                return new Job(id, rounds(id));
            }
            if (!master.allFinished.await(30, TimeUnit.SECONDS)) {
                errors.add("jobs did not finish before the end of the input");
            }
            return eos();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndTheLoopFromEosNotifyWhenNothingIsOutstanding(WaitStrategy strategy) {
        int m = 200;
        JobMaster master = new JobMaster(m);
        AtomicInteger rounds = new AtomicInteger();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        Farm farm = Farm.of(2, () -> new Decrementer(rounds, null, errors))
                .emitter(master)
                .wrapAround();
        new Pipeline(new PatientSource(m, master, errors), farm).runAndWaitEnd(options(strategy));

        assertThat(errors).isEmpty();
        assertThat(master.endedFromEosNotify).isEqualTo(1);
        assertThat(master.finished).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, m));
        assertThat(rounds.get())
                .isEqualTo(IntStream.range(0, m).map(FarmFeedbackTest::rounds).sum());
    }

    // ------------------------------------------------------------------ no deadlock on small queues

    /** Task or feedback piece: {@code kind} 0 = task, 1 = partial result, 2 = final result of a round. */
    record Piece(int seed, int depth, int kind) {}

    /** Each task sends two partial results and returns a final one, all on the feedback channel. */
    private static final class Chatty extends Node<Piece, Piece> {
        @Override
        protected Piece svc(Piece task) {
            sendOut(new Piece(task.seed(), task.depth(), 1));
            sendOut(new Piece(task.seed(), task.depth(), 1));
            return new Piece(task.seed(), task.depth(), 2);
        }
    }

    /** Sends all seeds at once, re-submits each final result until its depth reaches 0. */
    private static final class Flooder extends Node<Piece, Piece> {
        private final int seeds;
        private final int depth;
        volatile int parts;
        volatile int results;
        private int done;

        Flooder(int seeds, int depth) {
            this.seeds = seeds;
            this.depth = depth;
        }

        @Override
        protected Piece svc(Piece in) {
            if (in == null) {
                for (int s = 0; s < seeds; s++) {
                    sendOut(new Piece(s, depth, 0));
                }
                return goOn();
            }
            if (in.kind() == 1) {
                parts++;
                return goOn();
            }
            results++;
            if (in.depth() > 0) {
                return new Piece(in.seed(), in.depth() - 1, 0);
            }
            return ++done == seeds ? eos() : goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldNotDeadlockWithOneSlotQueuesAndManyFeedbackItemsWithoutCollector(WaitStrategy strategy) {
        int seeds = 2000;
        int depth = 3;
        Flooder emitter = new Flooder(seeds, depth);
        Farm.of(3, Chatty::new)
                .emitter(emitter)
                .wrapAround()
                .runAndWaitEnd(options(strategy).queueCapacity(1));

        int tasks = seeds * (depth + 1);
        assertThat(emitter.results).isEqualTo(tasks);
        assertThat(emitter.parts).isEqualTo(2 * tasks);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldNotDeadlockWithOneSlotQueuesAndManyFeedbackItemsThroughACollector(WaitStrategy strategy) {
        int seeds = 2000;
        int depth = 3;
        Flooder emitter = new Flooder(seeds, depth);
        Farm.of(3, Chatty::new)
                .emitter(emitter)
                .collector(Node.of((Piece p) -> p))
                .wrapAround()
                .runAndWaitEnd(options(strategy).queueCapacity(1));

        int tasks = seeds * (depth + 1);
        assertThat(emitter.results).isEqualTo(tasks);
        assertThat(emitter.parts).isEqualTo(2 * tasks);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldNotDeadlockWithOnDemandWorkersAndManyFeedbackItems(WaitStrategy strategy) {
        int seeds = 2000;
        int depth = 2;
        Flooder emitter = new Flooder(seeds, depth);
        Farm.of(4, Chatty::new).emitter(emitter).onDemand().wrapAround().runAndWaitEnd(options(strategy));

        int tasks = seeds * (depth + 1);
        assertThat(emitter.results).isEqualTo(tasks);
        assertThat(emitter.parts).isEqualTo(2 * tasks);
    }

    /** Stage 2 of a pipeline worker: tags the stage-1 result with the farm worker index it was built for. */
    private static final class TagWith extends Node<Integer, Result> {
        private final int worker;

        TagWith(int worker) {
            this.worker = worker;
        }

        @Override
        protected Result svc(Integer x) {
            return new Result(worker, x);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldFeedBackFromTheLastStageOfPipelineWorkers(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, true);
        AtomicInteger index = new AtomicInteger();
        Farm farm = Farm.of(3, () -> new Pipeline(Node.of((Integer x) -> x * x), new TagWith(index.getAndIncrement())))
                .emitter(master)
                .wrapAround();
        farm.runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(master.errors).as("feedback channel i comes from worker i").isEmpty();
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(squares(n));
        assertThat(master.feedbackChannelsSeen).isEqualTo(3);
    }

    /** First half of a combined emitter: counts results coming back, passes start signal and results on. */
    private static final class Counting extends MultiInputNode<Object, Object> {
        private final int n;
        final List<Integer> results = Collections.synchronizedList(new ArrayList<>());
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());

        Counting(int n) {
            this.n = n;
        }

        @Override
        protected Object svc(Object in) {
            if (in == null) {
                return "start";
            }
            Result r = (Result) in;
            if (!fromFeedback() || inputChannel() != r.worker()) {
                errors.add(r + " on channel " + inputChannel() + ", feedback " + fromFeedback());
            }
            results.add(r.value());
            return results.size() == n ? eos() : goOn();
        }
    }

    /** Second half: on "start" sends task i to worker i % workers. */
    private static final class Router extends MultiOutputNode<Object, Integer> {
        private final int n;

        Router(int n) {
            this.n = n;
        }

        @Override
        protected Integer svc(Object in) {
            if ("start".equals(in)) {
                for (int i = 0; i < n; i++) {
                    sendOutTo(i, i % outputChannels());
                }
            }
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldRunALoopWhoseEmitterIsACombinerOfAMultiInputAndAMultiOutputNode(WaitStrategy strategy) {
        int n = 3000;
        Counting counting = new Counting(n);
        Farm.of(3, Squarer::new)
                .emitter(Combiner.of(counting, new Router(n)))
                .wrapAround()
                .runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(counting.errors).isEmpty();
        assertThat(counting.results).containsExactlyInAnyOrderElementsOf(squares(n));
        // worker i % 3 squared i: the value tells the channel
        assertThat(counting.results).hasSize(n);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndWhenTheEmitterStopsWithTasksStillOutstanding(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, true, 10);
        Farm.of(3, Squarer::new)
                .emitter(master)
                .wrapAround()
                .runAndWaitEnd(options(strategy).queueCapacity(4));

        assertThat(master.results).hasSize(10);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldLoopThroughAFarmInsideAWrappedPipeline(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, true);
        new Pipeline(master, Farm.of(3, Squarer::new))
                .wrapAround()
                .runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(master.startCalls).isEqualTo(1);
        assertThat(master.errors).as("feedback channel i comes from worker i").isEmpty();
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(squares(n));
        assertThat(master.feedbackChannelsSeen).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldLoopThroughAnAllToAllInsideAWrappedPipeline(WaitStrategy strategy) {
        int n = 3000;
        Master master = new Master(n, true);
        List<BuildingBlock> rs = List.of(new Squarer(), new Squarer());
        AllToAll a2a = new AllToAll()
                .firstSet(Node.of((Integer x) -> x), Node.of((Integer x) -> x), Node.of((Integer x) -> x))
                .secondSet(rs);
        new Pipeline(master, a2a).wrapAround().runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(master.errors).as("feedback channel j comes from R-Worker j").isEmpty();
        assertThat(master.results).containsExactlyInAnyOrderElementsOf(squares(n));
        assertThat(master.feedbackChannelsSeen).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldRunAMasterWorkerWithInputCollectorAndOnDemandWorkers(WaitStrategy strategy) {
        int m = 400;
        JobMaster master = new JobMaster(m);
        AtomicInteger rounds = new AtomicInteger();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        Farm farm = Farm.of(3, () -> new Decrementer(rounds, master.inputEnded, errors))
                .emitter(master)
                .collector(Node.of((Job j) -> j))
                .onDemand()
                .wrapAround();
        new Pipeline(StreamFixtures.generate(0, m, id -> new Job(id, rounds(id))), farm)
                .runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(errors).isEmpty();
        assertThat(master.finished).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, m));
        assertThat(rounds.get())
                .isEqualTo(IntStream.range(0, m).map(FarmFeedbackTest::rounds).sum());
        assertThat(master.feedbackAfterInputEnded).isPositive();
    }

    // ------------------------------------------------------------------ a wrapped farm feeding a next stage

    /** A finished job's id, reported back to the emitter. */
    record Done(int id) {}

    /**
     * One round of a job: with rounds left it goes back to the emitter; when finished its id goes forward
     * to the next stage and a {@link Done} goes back.
     */
    private static final class RoundWorker extends MultiOutputNode<Job, Integer> {
        private final AtomicInteger rounds;

        RoundWorker(AtomicInteger rounds) {
            this.rounds = rounds;
        }

        @Override
        protected Integer svc(Job job) {
            rounds.incrementAndGet();
            Job next = new Job(job.id(), job.remaining() - 1);
            if (next.remaining() > 0) {
                sendFeedbackTo(next, 0);
            } else {
                sendOutTo(next.id(), 0);
                sendFeedbackTo(new Done(next.id()), 0);
            }
            return goOn();
        }
    }

    /** Loop head with an input stream: forwards jobs, re-submits returning ones, ends when all are done. */
    private static final class RoundMaster extends MultiInputNode<Object, Job> {
        private boolean inputEnded;
        private int outstanding;
        volatile int done;

        @Override
        protected Job svc(Object in) {
            if (in instanceof Done) {
                done++;
                return --outstanding == 0 && inputEnded ? eos() : goOn();
            }
            Job job = (Job) in;
            if (!fromFeedback()) {
                outstanding++;
            }
            return job;
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldFeedTheNextStageFromMultiOutputWorkersOfAWrappedFarm(WaitStrategy strategy) {
        int m = 1000;
        AtomicInteger rounds = new AtomicInteger();
        RoundMaster master = new RoundMaster();
        StreamFixtures.CollectByChannel<Integer> sink = new StreamFixtures.CollectByChannel<>();
        Farm farm = Farm.of(3, () -> new RoundWorker(rounds)).emitter(master).wrapAround();
        new Pipeline(StreamFixtures.generate(0, m, id -> new Job(id, rounds(id))), farm, sink)
                .runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(sink.items()).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, m));
        assertThat(sink.channels).as("one channel per worker").isEqualTo(3);
        assertThat(master.done).isEqualTo(m);
        assertThat(rounds.get())
                .isEqualTo(IntStream.range(0, m).map(FarmFeedbackTest::rounds).sum());
    }

    /** A collector passing finished ids forward and everything else back to the emitter. */
    private static final class SplittingCollector extends MultiOutputNode<Object, Integer> {
        @Override
        protected Integer svc(Object in) {
            if (in instanceof Done d) {
                sendOutTo(d.id(), 0);
            }
            sendFeedbackTo(in, 0);
            return goOn();
        }
    }

    /** Plain worker: one round; a finished job becomes a {@link Done}. */
    private static final class PlainRound extends Node<Job, Object> {
        @Override
        protected Object svc(Job job) {
            Job next = new Job(job.id(), job.remaining() - 1);
            return next.remaining() > 0 ? next : new Done(next.id());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldFeedTheNextStageFromAMultiOutputCollectorOfAWrappedFarm(WaitStrategy strategy) {
        int m = 1000;
        RoundMaster master = new RoundMaster();
        Sink<Integer> sink = new Sink<>();
        Farm farm = Farm.of(3, PlainRound::new)
                .emitter(master)
                .collector(new SplittingCollector())
                .wrapAround();
        new Pipeline(StreamFixtures.generate(0, m, id -> new Job(id, rounds(id))), farm, sink)
                .runAndWaitEnd(options(strategy).queueCapacity(2));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, m));
        assertThat(master.done).isEqualTo(m);
    }

    @org.junit.jupiter.api.Test
    void shouldRejectAWrappedFarmOfPlainWorkersFeedingANextStage() {
        Farm farm = Farm.of(2, Squarer::new).emitter(new Master(10, true)).wrapAround();
        Pipeline pipeline = new Pipeline(farm, new Sink<Result>());

        org.assertj.core.api.Assertions.assertThatThrownBy(pipeline::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("MultiOutputNode");
    }
}
