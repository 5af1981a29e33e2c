package org.fastflowj.core.runtime;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.fastflowj.core.Node;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.queue.SpscQueues;
import org.fastflowj.core.spi.AcceleratorEnds;
import org.jctools.queues.MessagePassingQueue;

/**
 * The two stages of an {@link org.fastflowj.core.Accelerator} and the caller's waits on them:
 *
 * <pre>
 *   caller ──offer──▶ [input] ──▶ block ──▶ [output] ──poll──▶ caller
 *                     SPSC (bounded)           SPSC (unbounded)
 * </pre>
 *
 * Every wait follows the run's {@link WaitStrategy} (an {@link IdleStrategy} on a {@link Parker}, as a
 * node thread waits) and is woken by the other side.
 */
final class AcceleratorStages implements AcceleratorEnds<Node<?, ?>> {
    private static final Object END = new Object();
    /**
     * The longest park of a caller waiting for room: the input stage wakes it after a poll, but without
     * a fence per item (see {@link Parker}), so a missed wake-up costs at most this.
     */
    private static final long ROOM_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Input input;
    private final Output output = new Output();
    /** The caller's waits: for room in the input channel, and for a result. */
    private final IdleStrategy roomIdle;

    private final IdleStrategy resultIdle;
    /** The caller's re-check before it parks for room, made once: waits allocate nothing. */
    private final Parker.WaitCondition roomOrClosed;
    /** The caller's wait for a condition of its own, on a parker of its own (woken by {@link #wakeCaller}). */
    private final IdleStrategy conditionIdle;

    private final Parker conditionParker = Parker.create();
    /** The condition last waited for and its adapter, so that a caller waiting on one condition allocates once. */
    private BooleanSupplier awaited;

    private Parker.WaitCondition awaitedCondition;

    AcceleratorStages(int capacity, WaitStrategy strategy) {
        this.input = new Input(capacity, strategy);
        this.roomIdle = IdleStrategy.of(strategy);
        this.resultIdle = IdleStrategy.of(strategy);
        this.roomOrClosed = input::roomOrClosed;
        this.conditionIdle = IdleStrategy.of(strategy);
    }

    @Override
    public Node<?, ?> inputStage() {
        return input;
    }

    @Override
    public Node<?, ?> outputStage() {
        return output;
    }

    @Override
    public boolean offer(Object item) {
        if (input.closed || !input.queue.offer(item)) {
            return false;
        }
        input.parker.wake();
        return true;
    }

    @Override
    public boolean offerEnd() {
        if (!input.queue.offer(END)) {
            return false;
        }
        input.parker.wake();
        return true;
    }

    @Override
    public boolean inputClosed() {
        return input.closed;
    }

    @Override
    public void resetRoomWait() {
        roomIdle.reset();
    }

    @Override
    public void awaitRoom() {
        roomIdle.idle(input.callerParker, roomOrClosed, ROOM_PARK_NANOS);
    }

    @Override
    public Object pollResult() {
        return output.queue.poll();
    }

    @Override
    public boolean outputEnded() {
        return output.ended;
    }

    @Override
    public boolean noResultWaiting() {
        return output.queue.isEmpty();
    }

    @Override
    public void resetResultWait() {
        resultIdle.reset();
    }

    @Override
    public void awaitResult() {
        resultIdle.idle(output.parker, output);
    }

    @Override
    public void resetConditionWait() {
        conditionIdle.reset();
    }

    @Override
    public void awaitCondition(BooleanSupplier ready) {
        if (ready != awaited) {
            awaited = ready;
            awaitedCondition = ready::getAsBoolean;
        }
        conditionIdle.idle(conditionParker, awaitedCondition);
    }

    @Override
    public void wakeCaller() {
        conditionParker.wake();
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
