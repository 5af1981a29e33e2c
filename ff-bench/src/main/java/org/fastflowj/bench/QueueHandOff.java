package org.fastflowj.bench;

import org.fastflowj.bench.queue.VarHandleSpscQueue;
import org.fastflowj.core.RunOptions;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscUnboundedAtomicArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Items per second handed from one thread to another through each SPSC queue the run-time could build
 * its channels on, one item at a time ({@code offer}/{@code poll}) and in batches ({@code fill}/{@code
 * drain}, up to {@value #BATCH} items a call):
 *
 * <pre>
 *   [thread: offer ITEM × N] ──queue(2048)──▶ [thread: poll × N]
 * </pre>
 *
 * <ul>
 *   <li>{@code jctoolsUnsafe}, {@code jctoolsUnsafeUnbounded}: JCTools' {@code SpscArrayQueue} and
 *       {@code SpscUnboundedArrayQueue}, on {@code sun.misc.Unsafe} (JDK 24 and later warn about it);
 *   <li>{@code jctoolsAtomic}, {@code jctoolsAtomicUnbounded}: their {@code org.jctools.queues.atomic}
 *       twins, on field updaters and {@code AtomicReferenceArray};
 *   <li>{@code varHandle}: {@link VarHandleSpscQueue}, FastFlow's SWSR buffer on {@code VarHandle}s.
 * </ul>
 *
 * <p>JMH forks one JVM per parameter combination, so each queue's calls stay monomorphic. One
 * invocation starts both threads and joins them, as {@link PipelineThroughput#rawJctools} does. The
 * two-thread figures depend on both threads being on a core; {@code sameThread} (one thread offers
 * {@value #BATCH} items, then polls them) measures only the instructions and stores of each queue's
 * path, and so stays comparable on a loaded machine.
 */
public class QueueHandOff extends AbstractBenchmark {
    public static final int ITEMS = 10_000_000;
    public static final int CAPACITY = RunOptions.DEFAULT_QUEUE_CAPACITY;
    public static final int BATCH = 64;
    /** The unbounded queues' chunk, as the run-time's unbounded channels. */
    public static final int CHUNK = 1024;

    static final Object ITEM = new Object();

    private static final int SPINS_BEFORE_YIELD = 100;

    @State(Scope.Benchmark)
    public static class QueueState {
        @Param({"jctoolsUnsafe", "jctoolsAtomic", "varHandle", "jctoolsUnsafeUnbounded", "jctoolsAtomicUnbounded"})
        public String queue;

        MessagePassingQueue<Object> newQueue() {
            return switch (queue) {
                case "jctoolsUnsafe" -> new SpscArrayQueue<>(CAPACITY);
                case "jctoolsAtomic" -> new SpscAtomicArrayQueue<>(CAPACITY);
                case "varHandle" -> new VarHandleSpscQueue<>(CAPACITY);
                case "jctoolsUnsafeUnbounded" -> new SpscUnboundedArrayQueue<>(CHUNK);
                case "jctoolsAtomicUnbounded" -> new SpscUnboundedAtomicArrayQueue<>(CHUNK);
                default -> throw new IllegalArgumentException("unknown queue: " + queue);
            };
        }
    }

    /** A queue of each kind, used by one thread. */
    @State(Scope.Thread)
    public static class OwnQueue {
        MessagePassingQueue<Object> queue;

        @Setup(Level.Trial)
        public void setUp(QueueState state) {
            queue = state.newQueue();
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object sameThread(OwnQueue own) {
        MessagePassingQueue<Object> queue = own.queue;
        for (int i = 0; i < BATCH; i++) {
            queue.offer(ITEM);
        }
        Object last = null;
        for (int i = 0; i < BATCH; i++) {
            last = queue.poll();
        }
        return last;
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long offerPoll(QueueState state) throws InterruptedException {
        return handOff(state.newQueue(), ITEMS, false);
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long fillDrain(QueueState state) throws InterruptedException {
        return handOff(state.newQueue(), ITEMS, true);
    }

    /** Moves {@code items} from a new producer thread to a new consumer thread; returns the count taken. */
    static long handOff(MessagePassingQueue<Object> queue, int items, boolean batched) throws InterruptedException {
        return batched
                ? run(() -> fillAll(queue, items), () -> drainAll(queue, items))
                : run(() -> offerEach(queue, items), () -> pollEach(queue, items));
    }

    private interface Consumer {
        long consume();
    }

    private static long run(Runnable producer, Consumer consumer) throws InterruptedException {
        long[] received = new long[1];
        Thread p = new Thread(producer, "handoff-producer");
        Thread c = new Thread(() -> received[0] = consumer.consume(), "handoff-consumer");
        c.start();
        p.start();
        p.join();
        c.join();
        return received[0];
    }

    private static void offerEach(MessagePassingQueue<Object> queue, int items) {
        for (int i = 0; i < items; i++) {
            for (int failed = 0; !queue.offer(ITEM); failed++) {
                idle(failed);
            }
        }
    }

    private static long pollEach(MessagePassingQueue<Object> queue, int items) {
        long count = 0;
        for (int i = 0; i < items; i++) {
            for (int failed = 0; queue.poll() == null; failed++) {
                idle(failed);
            }
            count++;
        }
        return count;
    }

    private static void fillAll(MessagePassingQueue<Object> queue, int items) {
        MessagePassingQueue.Supplier<Object> item = () -> ITEM;
        for (int left = items, failed = 0; left > 0; ) {
            int given = queue.fill(item, Math.min(BATCH, left));
            left -= given;
            failed = given == 0 ? failed + 1 : 0;
            if (failed > 0) {
                idle(failed);
            }
        }
    }

    private static long drainAll(MessagePassingQueue<Object> queue, int items) {
        long[] count = new long[1];
        MessagePassingQueue.Consumer<Object> counter = e -> count[0]++;
        for (int failed = 0; count[0] < items; ) {
            int taken = queue.drain(counter, BATCH);
            failed = taken == 0 ? failed + 1 : 0;
            if (failed > 0) {
                idle(failed);
            }
        }
        return count[0];
    }

    private static void idle(int failed) {
        if (failed < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
