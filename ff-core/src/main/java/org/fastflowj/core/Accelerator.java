package org.fastflowj.core;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.runtime.IdleStrategy;
import org.fastflowj.core.runtime.Parker;
import org.fastflowj.core.runtime.SpscQueues;
import org.jctools.queues.MessagePassingQueue;

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
 * both channels are single-producer single-consumer. Every wait follows the run's {@link WaitStrategy}
 * (an {@link IdleStrategy} on a {@link Parker}, as a node thread waits) and is woken by the other side;
 * waits end with the run's failure if the block fails.
 *
 * @param <I> the block's input item type
 * @param <O> the block's output item type
 */
public final class Accelerator<I, O> implements AutoCloseable {
    private static final Object END = new Object();
    /**
     * The longest park of a caller waiting for room: the block's input stage wakes it after a poll, but
     * without a fence per item (see {@link Parker}), so a missed wake-up costs at most this.
     */
    private static final long ROOM_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Pipeline pipeline;
    private final Input input;
    private final Output output;
    private boolean inputEnded;
    /** The caller's waits: for room in the input channel, and for a result. */
    private final IdleStrategy roomIdle;

    private final IdleStrategy resultIdle;
    /** The caller's re-check before it parks for room, made once: waits allocate nothing. */
    private final Parker.WaitCondition roomOrClosed;

    private final BuildingBlock block;
    /** A wrapped-around block sends its results back to its own head: the caller gets none. */
    private final boolean resultsGoBack;

    private Accelerator(BuildingBlock block, RunOptions options) {
        this.block = block;
        this.input = new Input(options.queueCapacity(), options.waitStrategy());
        this.output = new Output();
        this.roomIdle = IdleStrategy.of(options.waitStrategy());
        this.resultIdle = IdleStrategy.of(options.waitStrategy());
        this.roomOrClosed = input::roomOrClosed;
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
        Accelerator<I, O> accelerator = new Accelerator<>(block, options);
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
        roomIdle.reset();
        while (input.closed || !input.queue.offer(item)) {
            awaitRoom();
        }
        input.parker.wake();
    }

    /** Ends the block's input stream (FastFlow's {@code offload(EOS)}); later calls do nothing. */
    public void endInput() {
        if (inputEnded) {
            return;
        }
        inputEnded = true;
        roomIdle.reset();
        while (!input.queue.offer(END)) {
            awaitRoom();
        }
        input.parker.wake();
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
        resultIdle.reset();
        for (; ; ) {
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
            resultIdle.idle(output.parker, output);
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

    private void awaitRoom() {
        if (input.closed || pipeline.waitEnd(0, TimeUnit.NANOSECONDS)) { // a failure is rethrown here
            throw new IllegalStateException("the accelerated block has ended: it takes no more input");
        }
        checkInterrupt();
        roomIdle.idle(input.callerParker, roomOrClosed, ROOM_PARK_NANOS);
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
    private static final class Input extends Node<Void, Object> implements Parker.WaitCondition {
        final MessagePassingQueue<Object> queue;
        /** Where this stage's thread waits for the caller's items; the caller wakes it after each offer. */
        final Parker parker = Parker.create();
        /** Where the caller waits for room; this stage wakes it after a poll if it parked. */
        final Parker callerParker = Parker.create();

        private final IdleStrategy idle;
        /** The input stage ended (end of input, or the block stopped taking input). */
        volatile boolean closed;

        Input(int capacity, WaitStrategy strategy) {
            this.queue = SpscQueues.bounded(Math.max(4, capacity));
            this.idle = IdleStrategy.of(strategy);
        }

        @Override
        protected Object svc(Void none) {
            idle.reset();
            for (; ; ) {
                Object item = queue.poll();
                if (item != null) {
                    // A plain read per item; the wake-up (fenced) only when the caller parked for room.
                    if (callerParker.isParked()) {
                        callerParker.wake();
                    }
                    return item == END ? eos() : item;
                }
                if (Thread.currentThread().isInterrupted()) {
                    return eos(); // the run was cancelled
                }
                idle.idle(parker, this);
            }
        }

        /** The re-check before this stage parks: an item (or the end) was offered meanwhile. */
        @Override
        public boolean ready() {
            return !queue.isEmpty() || Thread.currentThread().isInterrupted();
        }

        /** The caller's re-check before it parks for room. */
        boolean roomOrClosed() {
            return closed || queue.size() < queue.capacity();
        }

        @Override
        protected void svcEnd() {
            closed = true;
            callerParker.wake(); // a caller waiting for room must see the end now
        }

        @Override
        public String toString() {
            return "accelerator input";
        }
    }

    /** The last stage: keeps every result for the caller. */
    private static final class Output extends Node<Object, Void> implements Parker.WaitCondition {
        final MessagePassingQueue<Object> queue = SpscQueues.unbounded(1024);
        /** Where the caller waits for a result; woken after every result (fenced: see Parker). */
        final Parker parker = Parker.create();

        volatile boolean ended;

        @Override
        protected Void svc(Object result) {
            queue.offer(result);
            parker.wake();
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
            parker.wake();
        }

        /** The caller's re-check before it parks. */
        @Override
        public boolean ready() {
            return !queue.isEmpty() || ended || Thread.currentThread().isInterrupted();
        }

        @Override
        public String toString() {
            return "accelerator output";
        }
    }
}
