package org.fastflowj.core;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscUnboundedAtomicArrayQueue;

/**
 * A running building block fed by the calling program, FastFlow's "accelerator" (self-offloading): the
 * caller {@linkplain #offload offloads} items into the block's input stream while it runs, ends the
 * stream with {@link #endInput()}, and takes the block's outputs with {@link #loadResult()}.
 *
 * <pre>
 *   caller ──offload──▶ [input] ──▶ block ──▶ [output] ──loadResult──▶ caller
 *                       SPSC (bounded)             SPSC (unbounded)
 * </pre>
 *
 * <p>Results are kept until taken (the result channel is unbounded), so offloading everything before
 * loading any result cannot deadlock. A block whose last stage emits nothing simply has no results,
 * nor has a wrapped-around block (a master-worker farm): its results go back to its own head. The
 * block itself answers {@code waitEnd}, {@code cancel} and {@code stats} while it runs, and cannot be
 * started a second time until this run ended.
 *
 * <p>Threading: one thread offloads and ends the input, one thread (the same or another) loads results:
 * both channels are single-producer single-consumer. Waits spin briefly, then park until the other side
 * wakes them; they end with the run's failure if the block fails.
 *
 * @param <I> the block's input item type
 * @param <O> the block's output item type
 */
public final class Accelerator<I, O> implements AutoCloseable {
    private static final Object END = new Object();
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Pipeline pipeline;
    private final Input input;
    private final Output output;
    private boolean inputEnded;

    private final BuildingBlock block;
    /** A wrapped-around block sends its results back to its own head: the caller gets none. */
    private final boolean resultsGoBack;

    private Accelerator(BuildingBlock block, int capacity) {
        this.block = block;
        this.input = new Input(capacity);
        this.output = new Output();
        this.resultsGoBack = block instanceof Pipeline p && p.isWrapAround()
                || block instanceof Farm f && f.isWrapAround()
                || block instanceof AllToAll a && a.isWrapAround();
        this.pipeline = resultsGoBack ? new Pipeline(input, block) : new Pipeline(input, block, output);
    }

    /** Starts {@code block} with {@link RunOptions#defaults()}, fed by the caller. */
    public static <I, O> Accelerator<I, O> start(BuildingBlock block) {
        return start(block, RunOptions.defaults());
    }

    /**
     * Starts {@code block}, fed by the caller through a channel of {@code options.queueCapacity()} items.
     *
     * @throws GraphBuildException if {@code block} cannot take an input stream
     */
    public static <I, O> Accelerator<I, O> start(BuildingBlock block, RunOptions options) {
        return start(block, options, false);
    }

    /**
     * As {@link #start(BuildingBlock, RunOptions)}, but always in this process on the shared-memory
     * executor, whatever runner is on the class path: for a block a library runs for itself (a pattern's
     * farm), whose items are shared objects that must never become a distributed group or be copied by
     * a serialization check.
     */
    public static <I, O> Accelerator<I, O> startInProcess(BuildingBlock block, RunOptions options) {
        return start(block, options, true);
    }

    private static <I, O> Accelerator<I, O> start(BuildingBlock block, RunOptions options, boolean inProcess) {
        Objects.requireNonNull(block, "block");
        Accelerator<I, O> accelerator = new Accelerator<>(block, options.queueCapacity());
        block.runInside(accelerator.pipeline, options, inProcess); // block.waitEnd(), cancel(), stats() work too
        return accelerator;
    }

    /**
     * Puts {@code item} into the block's input stream, waiting while the input channel is full.
     *
     * @throws IllegalStateException after {@link #endInput()}
     * @throws NodeFailedException if the block failed
     */
    public void offload(I item) {
        Objects.requireNonNull(item, "offload(null): null is not an item");
        if (inputEnded) {
            throw new IllegalStateException("offload after endInput(): the input stream has ended");
        }
        if (pipeline.runStopped()) {
            pipeline.waitEnd(); // the block failed or was cancelled: say so now, not once the channel is full
        }
        for (int round = 0; input.closed || !input.queue.offer(item); round++) {
            pause(round);
        }
        input.wake();
    }

    /** Ends the block's input stream (FastFlow's {@code offload(EOS)}); later calls do nothing. */
    public void endInput() {
        if (inputEnded) {
            return;
        }
        inputEnded = true;
        for (int round = 0; !input.queue.offer(END); round++) {
            pause(round);
        }
        input.wake();
    }

    /**
     * The next result, waiting for one; {@code null} once the block has ended and every result was taken.
     *
     * @throws NodeFailedException if the block failed
     */
    @SuppressWarnings("unchecked")
    public O loadResult() {
        if (resultsGoBack) {
            pipeline.waitEnd();
            return null;
        }
        output.consumer = Thread.currentThread();
        for (int round = 0; ; round++) {
            Object result = output.queue.poll();
            if (result != null) {
                return (O) result;
            }
            if (output.ended) {
                result = output.queue.poll(); // items put before the end flag was set
                if (result != null) {
                    return (O) result;
                }
                pipeline.waitEnd(); // rethrows a failure
                return null;
            }
            checkRunning();
            checkInterrupt();
            if (round < 64) {
                Thread.onSpinWait();
            } else {
                output.waiting = true;
                if (output.queue.isEmpty() && !output.ended) {
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
                output.waiting = false;
            }
        }
    }

    /** A result if one is ready, else {@code null} at once (see {@link #isFinished()} for the end). */
    @SuppressWarnings("unchecked")
    public O pollResult() {
        return (O) output.queue.poll();
    }

    /**
     * Whether the block has ended and every result was taken: what FastFlow's non-blocking
     * {@code load_result_nb} reports as EOS. Never waits.
     */
    public boolean isFinished() {
        return resultsGoBack ? pipeline.waitEnd(0, TimeUnit.NANOSECONDS) : output.ended && output.queue.isEmpty();
    }

    /** Cancels the run, as {@link BuildingBlock#cancel()}. */
    public void cancel() {
        pipeline.cancel();
    }

    /** Waits at most {@code timeout}, as {@link BuildingBlock#waitEnd(long, TimeUnit)}. */
    public boolean waitEnd(long timeout, TimeUnit unit) {
        return pipeline.waitEnd(timeout, unit);
    }

    /** Waits for the block to end (call {@link #endInput()} first); as {@link BuildingBlock#waitEnd()}. */
    public void waitEnd() {
        pipeline.waitEnd();
    }

    /** Ends the input and waits for the block to end; results not taken are discarded. */
    @Override
    public void close() {
        endInput();
        waitEnd();
    }

    /** Statistics of the run, including the input and output stages. */
    public RunStats stats() {
        return pipeline.stats();
    }

    private void pause(int round) {
        if (input.closed || pipeline.waitEnd(0, TimeUnit.NANOSECONDS)) { // a failure is rethrown here
            throw new IllegalStateException("the accelerated block has ended: it takes no more input");
        }
        checkInterrupt();
        if (round < 64) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(this, 50_000); // input channel full: the block is busy anyway
        }
    }

    /**
     * An interrupted caller gives up, as in {@link BuildingBlock#waitEnd()}: the run is cancelled and the
     * interrupt flag kept (without this check every park would return at once: a busy loop).
     */
    private void checkInterrupt() {
        if (Thread.currentThread().isInterrupted()) {
            pipeline.cancel();
            throw new CancellationException("interrupted while waiting on the accelerator: the run was cancelled");
        }
    }

    /** A failed or cancelled run must not leave the caller waiting: rethrow its failure. */
    private void checkRunning() {
        if (pipeline.waitEnd(0, TimeUnit.NANOSECONDS) && !output.ended) {
            throw new IllegalStateException("the accelerated block ended without ending its output");
        }
    }

    /** The first stage: hands the caller's items to the block, in order, until END. */
    private static final class Input extends Node<Void, Object> {
        final SpscAtomicArrayQueue<Object> queue;
        volatile Thread thread;
        volatile boolean waiting;
        /** The input stage ended (end of input, or the block stopped taking input). */
        volatile boolean closed;

        Input(int capacity) {
            this.queue = new SpscAtomicArrayQueue<>(Math.max(4, capacity));
        }

        @Override
        protected void svcInit() {
            thread = Thread.currentThread();
        }

        @Override
        protected Object svc(Void none) {
            for (int round = 0; ; round++) {
                Object item = queue.poll();
                if (item == END) {
                    return eos();
                }
                if (item != null) {
                    return item;
                }
                if (Thread.currentThread().isInterrupted()) {
                    return eos(); // the run was cancelled
                }
                if (round < 64) {
                    Thread.onSpinWait();
                } else {
                    waiting = true; // volatile write, then re-check: the caller reads it after offering
                    if (queue.isEmpty()) {
                        LockSupport.parkNanos(this, PARK_NANOS);
                    }
                    waiting = false;
                }
            }
        }

        @Override
        protected void svcEnd() {
            closed = true;
        }

        void wake() {
            Thread t = thread;
            if (waiting && t != null) {
                LockSupport.unpark(t);
            }
        }

        @Override
        public String toString() {
            return "accelerator input";
        }
    }

    /** The last stage: keeps every result for the caller. */
    private static final class Output extends Node<Object, Void> {
        final SpscUnboundedAtomicArrayQueue<Object> queue = new SpscUnboundedAtomicArrayQueue<>(1024);
        volatile boolean ended;
        volatile boolean waiting;
        volatile Thread consumer;

        @Override
        protected Void svc(Object result) {
            queue.offer(result);
            wake();
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
            wake();
        }

        private void wake() {
            Thread t = consumer;
            if (waiting && t != null) {
                LockSupport.unpark(t);
            }
        }

        @Override
        public String toString() {
            return "accelerator output";
        }
    }
}
