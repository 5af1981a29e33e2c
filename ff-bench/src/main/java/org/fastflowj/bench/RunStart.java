package org.fastflowj.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What a short run costs beyond its work: a whole run of a 4-node farm (emitter, 2 workers, collector)
 * passing {@value #ITEMS} items, against the same four bodies run by four threads started for the purpose
 * (what a run costs when every node starts a thread) and by a 4-thread pool kept for the trial.
 *
 * <pre>
 *   farm:           Farm.of(w, w).emitter(e).collector(c).runAndWaitEnd()     (the run-time reuses node threads)
 *   freshThreads:   4 × new Thread(body).start(), then 4 × join
 *   pool:           4 × pool.execute(body), then latch.await()              (Executors.newFixedThreadPool(4))
 * </pre>
 *
 * <p>Mode: average time per run, µs. The farm includes building its graph and its channels.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RunStart extends AbstractBenchmark {
    static final int ITEMS = 16;
    static final int THREADS = 4;

    /** The pool baseline's threads, alive for the whole trial. */
    @State(Scope.Benchmark)
    public static class Pool extends KeptPool {
        @Override
        protected int threads() {
            return THREADS;
        }
    }

    @Benchmark
    public long farm() {
        return runFarm();
    }

    @Benchmark
    public long freshThreads() throws InterruptedException {
        long[] sums = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int k = i;
            threads[i] = new Thread(() -> sums[k] = body(k));
            threads[i].start();
        }
        long sum = 0;
        for (int i = 0; i < THREADS; i++) {
            threads[i].join(); // orders the thread's write before this read
            sum += sums[i];
        }
        return sum;
    }

    @Benchmark
    public long pool(Pool pool) throws InterruptedException {
        long[] sums = new long[THREADS];
        CountDownLatch done = new CountDownLatch(THREADS);
        for (int i = 0; i < THREADS; i++) {
            int k = i;
            pool.executor.execute(() -> {
                sums[k] = body(k);
                done.countDown();
            });
        }
        done.await(); // countDown happens-before await's return: the sums are visible
        long sum = 0;
        for (long s : sums) {
            sum += s;
        }
        return sum;
    }

    static long runFarm() {
        Collector collector = new Collector();
        Farm.of(new Worker(), new Worker())
                .emitter(new Emitter())
                .collector(collector)
                .runAndWaitEnd(RunOptions.defaults());
        return collector.sum;
    }

    /** A thread's share of the baselines: as little as the farm's nodes do. */
    static long body(int k) {
        long s = 0;
        for (int i = 0; i < ITEMS; i++) {
            s += i ^ k;
        }
        return s;
    }

    static final class Emitter extends Node<Void, Integer> {
        private int next;

        @Override
        protected Integer svc(Void none) {
            return next < ITEMS ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer item) {
            return item;
        }
    }

    static final class Collector extends Node<Integer, Void> {
        long sum;

        @Override
        protected Void svc(Integer item) {
            sum += item;
            return goOn();
        }
    }
}
