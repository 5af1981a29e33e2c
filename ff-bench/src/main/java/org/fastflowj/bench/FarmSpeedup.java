package org.fastflowj.bench;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.fastflowj.bench.queue.GatherHandOff;
import org.fastflowj.bench.queue.SpmcHandOff;
import org.fastflowj.bench.queue.SpscHandOff;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.patterns.TaskFarm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Speed-up of a two-worker farm on tasks of a fixed grain, against the same tasks run by a sequential
 * loop and by a two-thread {@link ExecutorService}, all measured in the same run.
 *
 * <pre>
 *   farm:        [emitter: source of M tasks] ─┬─▶ [worker0: busy-work] ─┐
 *                                              └─▶ [worker1: busy-work] ─┴─▶ [collector: count]
 *                round-robin or on-demand (1 slot), queues of 2048, the strategy as parameter
 *
 *   sequential:  for each of the M tasks: busy-work                            (the benchmark thread)
 *
 *   executor:    for each of the M tasks: pool.execute(busy-work + latch.countDown()); latch.await()
 *                Executors.newFixedThreadPool(2), created once per trial
 *
 *   accelerator: caller ─offload─▶ [input] ─▶ [emitter] ─┬─▶ [worker0] ─┐
 *                                                        └─▶ [worker1] ─┴─▶ [collector] ─▶ [output] ─load─▶ caller
 *                the same farm, started once per trial (Accelerator.start); each invocation offloads its
 *                M tasks, taking ready results in between, and ends when all M results are back
 *
 *   taskFarm:    for each of the M tasks: taskFarm.addTask(busy-work); taskFarm.waitAll()
 *                the patterns' TaskFarm(2) (FastFlow's ff_taskf: an on-demand farm whose emitter is the
 *                accelerator's input stage, backoff waits, no result back per task), created once per
 *                trial like the executor's pool
 *
 *   rawFarm:     [emitter] ─┬─▶ SpscHandOff ─▶ [worker0] ─▶ SpscHandOff ─┐
 *                           └─▶ SpscHandOff ─▶ [worker1] ─▶ SpscHandOff ─┴─▶ [collector]
 *                the farm's shape with no run-time: JCTools queues of 2048 whose ends park and wake each
 *                other in batches (SpscHandOff, PARK); emitter and workers are tasks of a kept 3-thread
 *                pool, the collector is the benchmark thread (the shape's bound, below)
 *
 *   rawOnDemandFarm: [emitter] ─▶ SpmcHandOff ─┬─▶ [worker0] ─┐
 *                                              └─▶ [worker1] ─┴─▶ GatherHandOff ─▶ [collector]
 *                the same with on-demand hand-out at its cheapest: a free worker takes the next task
 *                itself, one compare-and-set on a shared queue per task, no slots (the bound of any
 *                on-demand farm of this shape, below)
 *
 *   splitBound:  M/2 tasks on a thread started per invocation, M/2 on the benchmark thread (the bound)
 * </pre>
 *
 * <p>One invocation runs M = {@value #SEQUENTIAL_WORK_MICROS} / grainMicros tasks, i.e. about 100 ms of
 * sequential work whatever the grain, so each 1 s iteration averages several invocations. The mode is
 * average time per invocation (ms): speed-up = sequential time / farm time, and the farm's gain over the
 * executor = executor time / farm time. The farm takes its four node threads inside the invocation
 * (the run-time keeps them from one run to the next, as the executor's pool is kept for the trial).
 * The accelerator is the like-for-like rival of the kept pool: the same farm, running for the whole trial
 * and merely handed tasks; it has two more threads than the farm (the caller's input and output stages).
 *
 * <p>The executor submits every task on its own and waits on one latch: the honest per-task comparison
 * with the farm, whose emitter also hands over one task at a time (no chunking on either side). Results
 * go into a {@link LongAdder} (per-thread cells, no shared hot line).
 *
 * <p>Busy-work: {@link BusyWork#spin}, calibrated to {@code grainMicros}. Each variant returns the sum of
 * the task results plus the task count, which is identical in every variant (the unit test checks it).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FarmSpeedup extends AbstractBenchmark {
    /** Sequential work per invocation, in microseconds: M = this / grainMicros tasks. */
    public static final int SEQUENTIAL_WORK_MICROS = 100_000;

    public static final int WORKERS = 2;

    /** How the farm's emitter picks a worker. */
    public enum Policy {
        ROUND_ROBIN(0),
        /** FastFlow's on-demand: one slot per worker. */
        ON_DEMAND(1),
        /** On-demand with more slots: not in the default run; pass {@code -p policy=ON_DEMAND_32}. */
        ON_DEMAND_32(32),
        ON_DEMAND_128(128);

        final int slots;

        Policy(int slots) {
            this.slots = slots;
        }
    }

    /** The tasks of one invocation, shared by all three variants. */
    @State(Scope.Benchmark)
    public static class Work {
        @Param({"1", "10"})
        public double grainMicros;

        int iterations;
        Task[] tasks;

        @Setup(Level.Trial)
        public void setUp() {
            prepare(grainMicros, BusyWork.iterationsFor(grainMicros), (int)
                    Math.round(SEQUENTIAL_WORK_MICROS / grainMicros));
        }

        void prepare(double grain, int iterationsPerTask, int taskCount) {
            grainMicros = grain;
            iterations = iterationsPerTask;
            tasks = new Task[taskCount];
            for (int i = 0; i < taskCount; i++) {
                tasks[i] = new Task(i + 1);
            }
        }
    }

    /** The farm's scheduling and wait strategy (the baselines do not depend on them). */
    @State(Scope.Benchmark)
    public static class FarmConfig {
        @Param({"ROUND_ROBIN", "ON_DEMAND"})
        public Policy policy;

        @Param({"BACKOFF"})
        public WaitStrategy strategy;

        RunOptions options;

        @Setup(Level.Trial)
        public void setUp() {
            options = RunOptions.defaults().waitStrategy(strategy);
        }
    }

    /**
     * The accelerator variant's farm, started once per trial and fed by every invocation, as the executor's
     * pool is kept for the trial; ended (input closed, run joined) at the trial's end.
     */
    @State(Scope.Benchmark)
    public static class KeptFarm {
        /** How long the trial's end waits for the farm to drain and stop before it cancels the run. */
        static final long CLOSE_TIMEOUT_SECONDS = 10;

        Accelerator<Job, Job> accelerator;
        /** One job per task, with a slot for its result: offloaded again by every invocation. */
        Job[] jobs;

        @Setup(Level.Trial)
        public void setUp(Work work, FarmConfig config) {
            start(work, config.policy, config.options);
        }

        void start(Work work, Policy policy, RunOptions options) {
            JobWorker[] workers = new JobWorker[WORKERS];
            for (int i = 0; i < WORKERS; i++) {
                workers[i] = new JobWorker(work.iterations);
            }
            // The same shape as runFarm: the accelerator's input stage feeds the farm's emitter (the default
            // one: it forwards), the collector (also the default one) passes each finished job to the caller.
            Farm farm = Farm.of(workers);
            if (policy.slots > 0) {
                farm.onDemand(policy.slots);
            } else {
                farm.roundRobin();
            }
            jobs = new Job[work.tasks.length];
            for (int i = 0; i < jobs.length; i++) {
                jobs[i] = new Job(work.tasks[i].seed);
            }
            accelerator = Accelerator.start(farm, options);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            accelerator.endInput();
            if (!accelerator.waitEnd(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                accelerator.cancel();
                throw new IllegalStateException("FarmSpeedup.accelerator: the kept farm did not end within "
                        + CLOSE_TIMEOUT_SECONDS + " s of endInput(); its run was cancelled");
            }
        }
    }

    /** The executor baseline's pool, alive for the whole trial. */
    @State(Scope.Benchmark)
    public static class Pool extends KeptPool {
        @Override
        protected int threads() {
            return WORKERS;
        }
    }

    @Benchmark
    public long farm(Work work, FarmConfig config) {
        return runFarm(work, config.policy, config.options);
    }

    /**
     * The same farm used as a kept thread pool (FastFlow's accelerator): started once per trial, each
     * invocation offloads its M tasks and waits until it has loaded all M results back.
     */
    @Benchmark
    public long accelerator(KeptFarm farm) {
        return runAccelerator(farm);
    }

    /** The executor's per-task submission and one barrier, through the patterns' {@link TaskFarm}. */
    @Benchmark
    public long taskFarm(Work work, KeptTaskFarm farm) {
        return runTaskFarm(work, farm.tasks);
    }

    /** The task farm, alive for the whole trial as the executor's pool is. */
    @State(Scope.Benchmark)
    public static class KeptTaskFarm {
        TaskFarm tasks;

        @Setup(Level.Trial)
        public void setUp() {
            tasks = new TaskFarm(WORKERS);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            tasks.close();
        }
    }

    @Benchmark
    public long sequential(Work work) {
        return runSequential(work);
    }

    @Benchmark
    public long executor(Work work, Pool pool) throws InterruptedException {
        return runExecutor(work, pool.executor);
    }

    /** The same per-task submission as {@link #executor}, on a work-stealing {@code ForkJoinPool(2)}. */
    @Benchmark
    public long forkJoin(Work work, ForkJoinPoolState pool) throws InterruptedException {
        return runExecutor(work, pool.pool);
    }

    /** The tasks as a parallel stream on the common pool (its workers plus the calling thread). */
    @Benchmark
    public long parallelStream(Work work) {
        return runParallelStream(work);
    }

    /**
     * The bound any two threads can reach on this machine: the tasks split in two halves, one run by a
     * thread started in the invocation, the other by the benchmark thread, nothing handed over. {@code sequential / splitBound} is the largest speed-up two workers can show
     * here; on two cores that also run the JIT, GC and other processes it stays below 2.
     */
    @Benchmark
    public long splitBound(Work work) throws InterruptedException {
        return runSplit(work);
    }

    /**
     * The least an emitter, two workers and a collector on threads of their own cost on this machine: the
     * farm's shape with nothing of the run-time (no node calls, statistics, end-of-stream or cancellation
     * checks), round-robin, each hand-off a bare JCTools queue of the farm's capacity whose ends park and
     * wake each other in batches, as ff-core's BACKOFF does with more threads than cores. {@code sequential
     * / rawFarm} bounds what any farm of this shape reaches here, as {@code splitBound} bounds any two
     * threads.
     */
    @Benchmark
    public long rawFarm(Work work, RawFarmPool pool) throws InterruptedException, ExecutionException {
        return runRawFarm(work, pool.executor);
    }

    /**
     * The on-demand farm's shape with nothing of the run-time: each worker, once free, takes the next task
     * from one queue the emitter fills ({@link SpmcHandOff}: a compare-and-set per task), and hands it to
     * the collector through a queue of its own ({@link GatherHandOff}). An on-demand farm gives a task to a
     * worker only when that worker has room, so its workers must agree on every task; this is that
     * agreement and nothing else (FastFlow's one-task slots add a hand-over per task on top). {@code
     * sequential / rawOnDemandFarm} bounds what any on-demand farm of this shape reaches here.
     */
    @Benchmark
    public long rawOnDemandFarm(Work work, RawFarmPool pool) throws InterruptedException, ExecutionException {
        return runRawOnDemandFarm(work, pool.executor);
    }

    /** The raw farm's emitter and workers: threads kept for the trial, as the farm's node threads are. */
    @State(Scope.Benchmark)
    public static class RawFarmPool extends KeptPool {
        @Override
        protected int threads() {
            return 1 + WORKERS;
        }
    }

    /** The ForkJoin baseline's pool, alive for the whole trial. */
    @State(Scope.Benchmark)
    public static class ForkJoinPoolState {
        ForkJoinPool pool;

        @Setup(Level.Trial)
        public void setUp() {
            pool = new ForkJoinPool(WORKERS);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    static long runParallelStream(Work work) {
        int iterations = work.iterations;
        return Arrays.stream(work.tasks)
                .parallel()
                .mapToLong(task -> BusyWork.spin(iterations, task.seed) + 1)
                .sum();
    }

    static long runFarm(Work work, Policy policy, RunOptions options) {
        Worker[] workers = new Worker[WORKERS];
        for (int i = 0; i < WORKERS; i++) {
            workers[i] = new Worker(work.iterations);
        }
        Collector collector = new Collector();
        Farm farm = Farm.of(workers).emitter(new Emitter(work.tasks)).collector(collector);
        if (policy.slots > 0) {
            farm.onDemand(policy.slots);
        } else {
            farm.roundRobin();
        }
        farm.runAndWaitEnd(options);
        long sum = collector.received; // read after waitEnd: every node thread was joined
        for (Worker w : workers) {
            sum += w.checksum;
        }
        return sum;
    }

    /**
     * One invocation on the kept farm: offload the M jobs, then load results until all M are back.
     *
     * <p>A single thread both offloads and loads. {@code offload} waits while the bounded input channel is
     * full, which cannot deadlock here: the accelerator's result channel is unbounded, so the farm keeps
     * draining the input whether or not the caller takes results. Between offloads the thread takes the
     * results that are ready without waiting, so they do not pile up while it offloads: the result channel
     * stays short and the tail of the invocation has few results left to load. Only room in the input
     * channel holds the caller back: like the farm's emitter and the executor's submitting loop, it hands
     * tasks over as fast as the farm takes them. (Capping the jobs in flight at or below the channels' wake-up batch instead
     * stalls the workers: the collector then wakes only when a worker runs dry, so the caller refills in
     * bursts, which costs most at fine grain.)
     */
    static long runAccelerator(KeptFarm farm) {
        Accelerator<Job, Job> accelerator = farm.accelerator;
        Job[] jobs = farm.jobs;
        long sum = 0;
        int loaded = 0;
        for (Job job : jobs) {
            accelerator.offload(job);
            for (Job done = accelerator.pollResult(); done != null; done = accelerator.pollResult()) {
                sum += done.result + 1;
                loaded++;
            }
        }
        for (; loaded < jobs.length; loaded++) {
            sum += accelerator.loadResult().result + 1;
        }
        return sum;
    }

    /**
     * One invocation of the raw farm. Round-robin makes the collector's order known (task i comes from
     * worker i % 2), so it takes from the two hand-offs in turn. A worker about to wait for a task first
     * wakes the collector for what it already handed over. A thread that fails records its failure, then
     * abandons every hand-off, so no other waits forever; the invocation then throws the first failure, not
     * the others' "gave up".
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // arrays of generic hand-offs and futures
    static long runRawFarm(Work work, ExecutorService pool) throws InterruptedException, ExecutionException {
        int iterations = work.iterations;
        Task[] tasks = work.tasks;
        int n = tasks.length;
        SpscHandOff<Task>[] toWorker = new SpscHandOff[WORKERS];
        SpscHandOff<Task>[] toCollector = new SpscHandOff[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            toWorker[w] = new SpscHandOff<>("raw farm: emitter → worker" + w, SpscHandOff.Wait.PARK);
            toCollector[w] = new SpscHandOff<>("raw farm: worker" + w + " → collector", SpscHandOff.Wait.PARK);
        }
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Consumer<Throwable> failAll = failure -> {
            firstFailure.compareAndSet(null, failure);
            for (int w = 0; w < WORKERS; w++) {
                toWorker[w].abandon();
                toCollector[w].abandon();
            }
        };
        Future<?> emitter = pool.submit(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    toWorker[i % WORKERS].put(tasks[i]);
                }
                for (SpscHandOff<Task> out : toWorker) {
                    out.wakeConsumerNow();
                }
            } catch (RuntimeException | Error e) {
                failAll.accept(e);
                throw e;
            }
        });
        Future<Long>[] workers = new Future[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            SpscHandOff<Task> in = toWorker[w];
            SpscHandOff<Task> out = toCollector[w];
            int first = w;
            workers[w] = pool.submit(() -> {
                try {
                    long checksum = 0;
                    for (int i = first; i < n; i += WORKERS) {
                        Task task = in.poll();
                        if (task == null) {
                            out.wakeConsumerNow();
                            task = in.take();
                        }
                        checksum += BusyWork.spin(iterations, task.seed);
                        out.put(task);
                    }
                    out.wakeConsumerNow();
                    return checksum;
                } catch (RuntimeException | Error e) {
                    failAll.accept(e);
                    throw e;
                }
            });
        }
        return collect(n, i -> toCollector[i % WORKERS].take(), emitter, workers, firstFailure, "raw farm");
    }

    /**
     * One invocation of the raw on-demand farm. The emitter ends the stream with one {@link #END} per
     * worker; the collector counts the M tasks in whatever order they come. A worker about to wait for a
     * task first wakes the collector. A failing task abandons every hand-off, as in {@link #runRawFarm}.
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of futures
    static long runRawOnDemandFarm(Work work, ExecutorService pool) throws InterruptedException, ExecutionException {
        int iterations = work.iterations;
        Task[] tasks = work.tasks;
        int n = tasks.length;
        SpmcHandOff<Task> toWorkers = new SpmcHandOff<>("raw on-demand farm: emitter → workers");
        GatherHandOff<Task> toCollector = new GatherHandOff<>("raw on-demand farm: workers → collector", WORKERS);
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Consumer<Throwable> failAll = failure -> {
            firstFailure.compareAndSet(null, failure);
            toWorkers.abandon();
            toCollector.abandon();
        };
        Future<?> emitter = pool.submit(() -> {
            try {
                for (Task task : tasks) {
                    toWorkers.put(task);
                }
                for (int w = 0; w < WORKERS; w++) {
                    toWorkers.put(END);
                }
            } catch (RuntimeException | Error e) {
                failAll.accept(e);
                throw e;
            }
        });
        Future<Long>[] workers = new Future[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            int self = w;
            workers[w] = pool.submit(() -> {
                try {
                    long checksum = 0;
                    for (; ; ) {
                        Task task = toWorkers.poll();
                        if (task == null) {
                            toCollector.wakeConsumerNow();
                            task = toWorkers.take();
                        }
                        if (task == END) {
                            break;
                        }
                        checksum += BusyWork.spin(iterations, task.seed);
                        toCollector.put(self, task);
                    }
                    toCollector.wakeConsumerNow();
                    return checksum;
                } catch (RuntimeException | Error e) {
                    failAll.accept(e);
                    throw e;
                }
            });
        }
        return collect(n, i -> toCollector.take(), emitter, workers, firstFailure, "raw on-demand farm");
    }

    /**
     * A raw farm's collector, on the benchmark thread: takes the M tasks ({@code take} the i-th), then
     * returns M plus the workers' checksums. If a hand-off was abandoned, waits until every task ended and
     * throws the first failure a task recorded.
     */
    private static long collect(
            int n,
            IntConsumer take,
            Future<?> emitter,
            Future<Long>[] workers,
            AtomicReference<Throwable> firstFailure,
            String farm)
            throws InterruptedException, ExecutionException {
        long sum = 0;
        try {
            for (int i = 0; i < n; i++) {
                take.accept(i);
                sum++;
            }
        } catch (IllegalStateException abandoned) {
            awaitEnd(emitter);
            for (Future<Long> worker : workers) {
                awaitEnd(worker);
            }
            Throwable failure = firstFailure.get();
            if (failure == null) {
                throw abandoned;
            }
            throw new ExecutionException(farm + ": a task failed", failure);
        }
        emitter.get();
        for (Future<Long> worker : workers) {
            sum += worker.get();
        }
        return sum;
    }

    /** Ends the raw on-demand farm's stream: one per worker, after the last task. */
    static final Task END = new Task(0);

    /** Waits until {@code task} ended, however: after a failure every task ends soon (its hand-offs are abandoned). */
    private static void awaitEnd(Future<?> task) throws InterruptedException {
        try {
            task.get();
        } catch (ExecutionException ended) {
            // its failure, or its "gave up", is recorded or reported by the caller
        }
    }

    static long runSequential(Work work) {
        int iterations = work.iterations;
        long sum = 0;
        for (Task task : work.tasks) {
            sum += BusyWork.spin(iterations, task.seed) + 1;
        }
        return sum;
    }

    static long runSplit(Work work) throws InterruptedException {
        int iterations = work.iterations;
        Task[] tasks = work.tasks;
        int half = tasks.length / 2;
        long[] secondSum = new long[1];
        Thread second = new Thread(() -> secondSum[0] = spinAll(tasks, half, tasks.length, iterations), "split-bound");
        second.start();
        long sum = spinAll(tasks, 0, half, iterations);
        second.join(); // the join orders the second thread's write before this read
        return sum + secondSum[0];
    }

    private static long spinAll(Task[] tasks, int from, int to, int iterations) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += BusyWork.spin(iterations, tasks[i].seed) + 1;
        }
        return sum;
    }

    static long runExecutor(Work work, ExecutorService executor) throws InterruptedException {
        int iterations = work.iterations;
        Task[] tasks = work.tasks;
        CountDownLatch done = new CountDownLatch(tasks.length);
        LongAdder sum = new LongAdder();
        for (Task task : tasks) {
            long seed = task.seed;
            executor.execute(() -> {
                sum.add(BusyWork.spin(iterations, seed) + 1);
                done.countDown();
            });
        }
        done.await();
        return sum.sum();
    }

    static long runTaskFarm(Work work, TaskFarm farm) {
        int iterations = work.iterations;
        LongAdder sum = new LongAdder();
        for (Task task : work.tasks) {
            long seed = task.seed;
            farm.addTask(() -> sum.add(BusyWork.spin(iterations, seed) + 1));
        }
        farm.waitAll();
        return sum.sum();
    }

    /** One task: only its seed; immutable, so the threads share nothing they write. */
    static final class Task {
        final long seed;

        Task(long seed) {
            this.seed = seed;
        }
    }

    /** The farm's emitter: a source handing out the prepared tasks, then EOS. */
    static final class Emitter extends Node<Void, Task> {
        private final Task[] tasks;
        private int next;

        Emitter(Task[] tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Task svc(Void none) {
            return next < tasks.length ? tasks[next++] : eos();
        }
    }

    /** A farm worker: the busy-work, folded into its own checksum; passes the task on. */
    static final class Worker extends Node<Task, Task> {
        private final int iterations;
        long checksum;

        Worker(int iterations) {
            this.iterations = iterations;
        }

        @Override
        protected Task svc(Task task) {
            checksum += BusyWork.spin(iterations, task.seed);
            return task;
        }
    }

    /**
     * A task of the kept farm: its seed and a slot for its result. The worker writes the slot before it
     * passes the job on; every SPSC channel between the worker and the caller publishes an item with a
     * release store and takes it with an acquire load, so the caller's read of {@code result} after
     * loading the job sees the write. A job is offloaded again only after it was loaded back.
     */
    static final class Job {
        final long seed;
        long result;

        Job(long seed) {
            this.seed = seed;
        }
    }

    /** A worker of the kept farm: the busy-work, written into the job's result slot. */
    static final class JobWorker extends Node<Job, Job> {
        private final int iterations;

        JobWorker(int iterations) {
            this.iterations = iterations;
        }

        @Override
        protected Job svc(Job job) {
            job.result = BusyWork.spin(iterations, job.seed);
            return job;
        }
    }

    /** The farm's collector: counts the finished tasks. */
    static final class Collector extends Node<Task, Void> {
        long received;

        @Override
        protected Void svc(Task task) {
            received++;
            return goOn();
        }
    }
}
