package org.fastflowj.core;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.fastflowj.core.spi.AcceleratorEnds;

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
 * (as a node thread waits) and is woken by the other side; waits end with the run's failure if the
 * block fails.
 *
 * @param <I> the block's input item type
 * @param <O> the block's output item type
 */
public final class Accelerator<I, O> implements AutoCloseable {
    private final Pipeline pipeline;
    /** The engine's input and output stages, and the caller's waits on them. */
    private final AcceleratorEnds<Node<?, ?>> ends;

    private boolean inputEnded;
    private final BuildingBlock block;
    /** A wrapped-around block sends its results back to its own head: the caller gets none. */
    private final boolean resultsGoBack;

    private Accelerator(BuildingBlock block, RunOptions options, boolean inProcess) {
        this.block = block;
        this.ends = Node.engine().acceleratorEnds(options);
        this.resultsGoBack = block instanceof Pipeline p && p.isWrapAround()
                || block instanceof Farm f && f.isWrapAround()
                || block instanceof AllToAll a && a.isWrapAround();
        if (resultsGoBack) {
            this.pipeline = new Pipeline(ends.inputStage(), block);
        } else if (inProcess && block instanceof Farm farm && takesInputStageAsEmitter(farm)) {
            this.pipeline = new Pipeline(farm.withEmitter(ends.inputStage()), ends.outputStage());
        } else {
            this.pipeline = new Pipeline(ends.inputStage(), block, ends.outputStage());
        }
    }

    /**
     * Whether a library's farm (started in process) gets the input stage as its emitter, as the optimizer's
     * {@link OptLevel#LEVEL1} merges a first stage into the next farm: the input stage's thread then hands
     * the caller's items to the workers itself, one thread and one channel fewer per item, which is what
     * limits a farm of microsecond tasks on few cores. Only a farm with the default emitter, which forwards,
     * and nothing that depends on the emitter being a node of its own (order, feedback, groups).
     */
    private static boolean takesInputStageAsEmitter(Farm farm) {
        return farm.emitter() == null
                && !farm.isOrdered()
                && !farm.hasFeedbackFromWorkers()
                && !farm.isRecoverable()
                && farm.groups().isEmpty();
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
     * a serialization check. A farm with the default emitter (unordered, without feedback) then takes the
     * input stage as its emitter, one thread fewer between the caller and the workers.
     */
    public static <I, O> Accelerator<I, O> startInProcess(BuildingBlock block, RunOptions options) {
        return start(block, options, true);
    }

    private static <I, O> Accelerator<I, O> start(BuildingBlock block, RunOptions options, boolean inProcess) {
        Objects.requireNonNull(block, "block");
        Accelerator<I, O> accelerator = new Accelerator<>(block, options, inProcess);
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
        ends.resetRoomWait();
        while (!ends.offer(item)) {
            awaitRoom();
        }
    }

    /** Ends the block's input stream (FastFlow's {@code offload(EOS)}); later calls do nothing. */
    public void endInput() {
        if (inputEnded) {
            return;
        }
        inputEnded = true;
        ends.resetRoomWait();
        while (!ends.offerEnd()) {
            awaitRoom();
        }
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
        ends.resetResultWait();
        for (; ; ) {
            Object result = ends.pollResult();
            if (result != null) {
                return (O) result;
            }
            if (ends.outputEnded()) {
                result = ends.pollResult(); // items put before the end flag was set
                if (result != null) {
                    return (O) result;
                }
                pipeline.waitEnd(); // rethrows a failure
                return null;
            }
            checkRunning();
            checkInterrupt();
            ends.awaitResult();
        }
    }

    /** A result if one is ready, else {@code null} at once (see {@link #isFinished()} for the end). */
    @SuppressWarnings("unchecked")
    public O pollResult() {
        return (O) ends.pollResult();
    }

    /**
     * Whether the block has ended and every result was taken: what FastFlow's non-blocking
     * {@code load_result_nb} reports as EOS. Never waits.
     */
    public boolean isFinished() {
        return resultsGoBack ? pipeline.waitEnd(0, TimeUnit.NANOSECONDS) : ends.outputEnded() && ends.noResultWaiting();
    }

    /**
     * Waits until {@code ready} answers true, by the run's wait strategy: for a caller whose answer comes
     * back beside the output channel (a flag or a count that the block's nodes update). Whoever makes it
     * true calls {@link #wakeWaiter()} after, which wakes the caller at once; one thread at a time waits
     * so.
     *
     * @return true once {@code ready}; false, early, if the calling thread is interrupted (its interrupt
     *     status stays set) or the block ended with {@code ready} still false
     * @throws NodeFailedException if the block failed
     */
    public boolean awaitUntil(BooleanSupplier ready) {
        ends.resetConditionWait();
        while (!ready.getAsBoolean()) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (pipeline.waitEnd(0, TimeUnit.NANOSECONDS)) {
                return ready.getAsBoolean();
            }
            ends.awaitCondition(ready);
        }
        return true;
    }

    /**
     * Wakes the thread waiting in {@link #awaitUntil}, if it parked; call it after making its condition
     * true (a volatile write or an atomic update, which the handshake orders before the wake-up). Any thread.
     */
    public void wakeWaiter() {
        ends.wakeCaller();
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
        if (ends.inputClosed() || pipeline.waitEnd(0, TimeUnit.NANOSECONDS)) { // a failure is rethrown here
            throw new IllegalStateException("the accelerated block has ended: it takes no more input");
        }
        checkInterrupt();
        ends.awaitRoom();
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
        if (pipeline.waitEnd(0, TimeUnit.NANOSECONDS) && !ends.outputEnded()) {
            throw new IllegalStateException("the accelerated block ended without ending its output");
        }
    }
}
