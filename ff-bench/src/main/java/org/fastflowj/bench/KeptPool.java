package org.fastflowj.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A fixed thread pool alive for a whole JMH trial, as a real program keeps its pool: the state of the
 * {@code ExecutorService} baselines. A subclass annotated {@code @State} says how many threads.
 */
public abstract class KeptPool {
    ExecutorService executor;

    /** The pool's threads. */
    protected abstract int threads();

    @Setup(Level.Trial)
    public void setUp() {
        executor = Executors.newFixedThreadPool(threads());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
