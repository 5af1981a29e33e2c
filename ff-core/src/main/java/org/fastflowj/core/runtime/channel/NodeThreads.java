package org.fastflowj.core.runtime.channel;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The platform threads runners run on: each runner has a thread of its own for its whole run, named after
 * its vertex, as FastFlow gives each node a thread. A thread whose runner ended waits {@link #KEEP_ALIVE_NANOS}
 * for the next run's runner before it exits. Starting a JVM thread is slow next to a short run's work (the
 * start handshake takes two thread switches; ff-bench's {@code RunStart} shows the effect), so a program that
 * runs graph after graph would otherwise spend most of a short run starting its threads, while an
 * {@link java.util.concurrent.ExecutorService}'s threads are already there.
 *
 * <p>What a runner's thread looks like is what a new thread looks like: daemon, normal priority, the
 * starter's context class loader, not interrupted, named after the vertex while it runs ({@code
 * node-thread-idle} while it waits for the next). A thread pinned to a CPU ({@code threadMapping}) is never
 * reused. Thread-locals a node set stay with the thread, as with any pool.
 *
 * <p>Threading: {@link #start} from any thread. An idle thread is handed its next runner by one CAS on
 * its state (so a thread timing out and a starter taking it never both succeed), then its runner field is
 * published by a volatile write before the unpark. {@link Run#interrupt} and the release of a run's thread
 * exclude each other on the run's monitor, and the thread clears its interrupt status before it waits for
 * its next runner, so an interrupt meant for one run never reaches the next runner on that thread.
 */
public final class NodeThreads {
    /** How long an idle thread waits for another runner before it exits. */
    static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** At most this many idle threads wait; a runner ending beyond that lets its thread exit. */
    static final int MAX_IDLE = 256;

    static final String IDLE_NAME = "node-thread-idle";

    /** Idle threads, the most recently used first (its caches and its CPU are the warmest). */
    private static final ConcurrentLinkedDeque<Worker> IDLE = new ConcurrentLinkedDeque<>();

    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();

    private NodeThreads() {}

    /** Runs {@code runner} on a thread of its own named {@code name}: {@link #prepare} then {@link Run#start}. */
    public static Run start(Runnable runner, String name) {
        Run run = prepare(runner, name);
        run.start();
        return run;
    }

    /**
     * The run of {@code runner} on a thread of its own named {@code name}, not started: whoever may cancel
     * it can know it before it runs.
     */
    public static Run prepare(Runnable runner, String name) {
        return new Run(runner, name, Thread.currentThread().getContextClassLoader());
    }

    /** The calling thread was pinned to a CPU: it exits once its runner ended instead of being reused. */
    public static void doNotReuseCurrentThread() {
        if (Thread.currentThread() instanceof Worker w) {
            w.pinned = true;
        }
    }

    /** One runner on one thread: what the executor waits for and interrupts. */
    public static final class Run {
        public final String name;
        private final Runnable runner;
        private final ClassLoader contextLoader;
        private volatile Thread thread;
        /** Guarded by this run's monitor for writes; read without it by {@link #isAlive}. */
        private volatile boolean ended;
        /** The runner returned: its thread is no longer its own (guarded by this run's monitor). */
        private boolean released;

        private Run(Runnable runner, String name, ClassLoader contextLoader) {
            this.runner = runner;
            this.name = name;
            this.contextLoader = contextLoader;
        }

        /** Hands the runner to an idle thread, or to a new one. Once. */
        public void start() {
            Worker idle;
            while ((idle = IDLE.pollFirst()) != null) {
                IDLE_COUNT.decrementAndGet();
                if (idle.take(this)) {
                    return;
                }
            }
            new Worker(this).start();
        }

        /** Whether the runner has not ended yet (it may not have started either). */
        public boolean isAlive() {
            return !ended;
        }

        /** Waits at most {@code millis} ms for the runner to end. */
        public synchronized void join(long millis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (!ended) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        /** Interrupts the runner's thread, if the runner is still on it. */
        public synchronized void interrupt() {
            Thread t = thread;
            if (!released && t != null) {
                t.interrupt();
            }
        }

        /** The runner's thread, known once {@link #start} chose it (it may not have picked the runner up yet). */
        public Thread thread() {
            return thread;
        }

        private void runOn(Thread t) {
            t.setContextClassLoader(contextLoader);
            t.setName(name);
            runner.run();
        }

        /** Its thread could not be started: nobody waits for it. */
        public void neverStarted() {
            end();
        }

        /** On the runner's thread, once it returned: no interrupt for it gets through after this. */
        private synchronized void release() {
            released = true;
        }

        /** The runner ended: who waits for it goes on. */
        private synchronized void end() {
            ended = true;
            notifyAll();
        }
    }

    /** A reusable runner thread. */
    private static final class Worker extends Thread {
        private static final int IDLE_STATE = 0;
        private static final int TAKEN = 1;
        private static final int RETIRED = 2;

        private final AtomicInteger state = new AtomicInteger(TAKEN);
        /** The next runner: written by the starter after its CAS, before its unpark. */
        private volatile Run next;
        /** Pinned to a CPU by its runner: exits afterwards. Written and read by this thread only. */
        boolean pinned;

        Worker(Run first) {
            super(first.name);
            setDaemon(true); // a node stuck in user code must not keep the JVM alive after waitEnd gave up
            setPriority(NORM_PRIORITY);
            first.thread = this;
            next = first;
        }

        /** A starter hands over {@code run}; false if this thread is exiting. */
        boolean take(Run run) {
            if (!state.compareAndSet(IDLE_STATE, TAKEN)) {
                return false;
            }
            run.thread = this;
            next = run;
            LockSupport.unpark(this);
            return true;
        }

        @Override
        public void run() {
            Run run = next;
            while (run != null) {
                next = null;
                boolean idle = runToEnd(run);
                run = null; // an idle thread holds nothing of its last run (the node, its graph)
                if (idle) {
                    run = awaitNext();
                }
            }
        }

        /** Runs {@code run}'s runner; whether this thread is then idle, waiting for the next one. */
        private boolean runToEnd(Run run) {
            Throwable thrown = null;
            try {
                run.runOn(this);
            } catch (Throwable t) {
                thrown = t; // the thread ends with it, as a thread of its own would
            }
            setName(IDLE_NAME);
            run.release();
            Thread.interrupted(); // an interrupt that came before release() was for that run only
            setContextClassLoader(null);
            setPriority(NORM_PRIORITY); // what a node changed of its thread is not the next one's
            setUncaughtExceptionHandler(null);
            // Idle before the run is told it ended: whoever waited for it may start the next run at once,
            // and should find this thread waiting rather than start a new one.
            boolean idle = thrown == null && !pinned && offerSelf();
            run.end();
            if (thrown instanceof RuntimeException e) {
                throw e;
            } else if (thrown instanceof Error e) {
                throw e;
            } else if (thrown != null) {
                throw new IllegalStateException(thrown);
            }
            return idle;
        }

        /** Joins the idle threads, unless there are enough already. */
        private boolean offerSelf() {
            if (IDLE_COUNT.incrementAndGet() > MAX_IDLE) {
                IDLE_COUNT.decrementAndGet();
                return false;
            }
            state.set(IDLE_STATE);
            IDLE.addFirst(this);
            return true;
        }

        /** The next runner, or null once no starter took this thread within the keep-alive. */
        private Run awaitNext() {
            long deadline = System.nanoTime() + KEEP_ALIVE_NANOS;
            for (; ; ) {
                Run run = next;
                if (run != null) {
                    return run;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 && state.compareAndSet(IDLE_STATE, RETIRED)) {
                    if (IDLE.removeFirstOccurrence(this)) {
                        IDLE_COUNT.decrementAndGet();
                    }
                    return null;
                }
                // A stray interrupt while idle is dropped (else the park would return at once, a spin); once
                // a starter took this thread, an interrupt is for the run it hands over and must stay.
                if (state.get() == IDLE_STATE) {
                    Thread.interrupted();
                }
                // Taken meanwhile (the CAS failed): the runner is on its way, published before the unpark.
                LockSupport.parkNanos(this, Math.max(left, 1_000_000));
            }
        }
    }
}
