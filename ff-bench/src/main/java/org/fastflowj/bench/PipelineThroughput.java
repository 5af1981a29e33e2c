package org.fastflowj.bench;

import java.util.concurrent.ArrayBlockingQueue;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Items per second through a two-stage pipeline of empty nodes, against a raw JCTools hand-off between
 * two platform threads with the same queue capacity, measured in the same run.
 *
 * <pre>
 *   pipeline:    [source: emit ITEM × N, then EOS] ──SPSC(2048)──▶ [sink: goOn()]      (ff-core, per strategy)
 *   rawJctools:  [thread: offer ITEM × N]          ──SpscArrayQueue(2048)──▶ [thread: poll × N]
 * </pre>
 *
 * <p>One invocation moves {@value #ITEMS} items end to end, thread start and join included (both
 * variants start two platform threads and wait for them, so the fixed cost is the same and is well
 * under 1% of an invocation). With {@code @OperationsPerInvocation(ITEMS)} and throughput mode JMH
 * reports items per second. Throughput mode (several invocations per 1 s iteration) was chosen over
 * single-shot because one invocation lasts 30–300 ms, so each iteration still averages several runs.
 *
 * <p>The figure to report is {@code pipeline / rawJctools} for each {@link WaitStrategy}. The raw
 * baseline has no parameter, so it runs once however many strategies are measured.
 */
public class PipelineThroughput extends AbstractBenchmark {
    /** Items moved per invocation: about 30 ms for the raw hand-off at 3e8 items/s. */
    public static final int ITEMS = 10_000_000;
    /** Capacity of the one channel, in both variants: ff-core's default (FastFlow's buffer size). */
    public static final int CAPACITY = RunOptions.DEFAULT_QUEUE_CAPACITY;

    /** The one item sent N times: nothing is allocated per item, in either variant. */
    static final Object ITEM = new Object();

    /** Failed offers / polls spun before the raw hand-off starts yielding. */
    private static final int SPINS_BEFORE_YIELD = 100;

    /** The pipeline's run options, one benchmark run per wait strategy. */
    @State(Scope.Benchmark)
    public static class PipelineState {
        @Param({"BUSY_SPIN", "BACKOFF", "BLOCKING"})
        public WaitStrategy strategy;

        RunOptions options;

        @Setup(Level.Trial)
        public void setUp() {
            options = RunOptions.defaults().waitStrategy(strategy).queueCapacity(CAPACITY);
        }
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long pipeline(PipelineState state) {
        return runPipeline(state.options, ITEMS);
    }

    /**
     * The pipeline with FastFlow's idiomatic source: one {@code svc} call that sends every item with
     * {@code sendOut} (C++'s {@code ff_send_out} loop) and returns EOS, instead of one item per call.
     */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long pipelineSendOutLoop(PipelineState state) {
        return runSendOutLoop(state.options, ITEMS);
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long rawJctools() throws InterruptedException {
        return runRaw(CAPACITY, ITEMS);
    }

    /**
     * The raw hand-off plus the one thing no node run-time can skip: a virtual {@code svc} call per item
     * on each side, with FastFlow's "null plus a signal" convention for GO_ON, and nothing else (no
     * statistics, wake-ups, end-of-stream or cancellation checks). Its ratio to {@link #rawJctools} is
     * the ceiling for {@code pipeline / raw} on this JVM and machine.
     */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long rawWithSvcCalls() throws InterruptedException {
        return runRawWithSvcCalls(CAPACITY, ITEMS);
    }

    /** The same hand-off through a {@link ArrayBlockingQueue} of the same capacity ({@code put} / {@code take}). */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long arrayBlockingQueue() throws InterruptedException {
        return runArrayBlockingQueue(CAPACITY, ITEMS);
    }

    /**
     * The same hand-off through an LMAX Disruptor ring of the same size, one producer and one consumer,
     * with the Disruptor's wait strategy closest to the pipeline's ({@link DisruptorHandOff#waitStrategy}).
     */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long disruptor(PipelineState state) throws InterruptedException {
        return DisruptorHandOff.run(state.strategy, CAPACITY, ITEMS);
    }

    static long runArrayBlockingQueue(int capacity, int items) throws InterruptedException {
        ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(capacity);
        long[] received = new long[1];
        Thread producer = new Thread(
                () -> {
                    try {
                        for (int i = 0; i < items; i++) {
                            queue.put(ITEM);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "abq-producer");
        Thread consumer = new Thread(
                () -> {
                    try {
                        for (int i = 0; i < items; i++) {
                            queue.take();
                            received[0]++;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "abq-consumer");
        consumer.start();
        producer.start();
        producer.join();
        consumer.join(); // join orders the consumer's writes to received[0] before this read
        return received[0];
    }

    /** A stand-in for a node: one virtual svc, a GO_ON signal field, 128 bytes of padding first. */
    abstract static class Stage extends Padding {
        static final Object GO_ON = new Object();
        Object signal;

        abstract Object svc(Object input);

        /** As Node.call: the item, or the pending signal for a null result. */
        final Object call(Object input) {
            Object result = svc(input);
            if (result != null) {
                return result;
            }
            Object pending = signal;
            signal = null;
            return pending;
        }
    }

    @SuppressWarnings("unused")
    abstract static class Padding {
        private long p00, p01, p02, p03, p04, p05, p06, p07, p10, p11, p12, p13, p14, p15, p16, p17;
    }

    static final class EmitStage extends Stage {
        @Override
        Object svc(Object input) {
            return ITEM;
        }
    }

    static final class CountStage extends Stage {
        long received;

        @Override
        Object svc(Object input) {
            received++;
            signal = GO_ON;
            return null;
        }
    }

    static long runRawWithSvcCalls(int capacity, int items) throws InterruptedException {
        SpscArrayQueue<Object> queue = new SpscArrayQueue<>(capacity);
        Stage source = new EmitStage();
        CountStage sink = new CountStage();
        Thread producer = new Thread(
                () -> {
                    for (int i = 0; i < items; i++) {
                        Object item = source.call(null);
                        for (int failed = 0; !queue.offer(item); failed++) {
                            idle(failed);
                        }
                    }
                },
                "raw-svc-producer");
        Thread consumer = new Thread(
                () -> {
                    for (int i = 0; i < items; i++) {
                        Object item;
                        for (int failed = 0; (item = queue.poll()) == null; failed++) {
                            idle(failed);
                        }
                        sink.call(item);
                    }
                },
                "raw-svc-consumer");
        consumer.start();
        producer.start();
        producer.join();
        consumer.join();
        return sink.received;
    }

    /** Runs the two-stage pipeline once; returns the number of items the sink received. */
    static long runPipeline(RunOptions options, int items) {
        Sink sink = new Sink();
        new Pipeline(new Source(items), sink).runAndWaitEnd(options);
        return sink.received; // read after waitEnd: the sink thread was joined
    }

    static long runSendOutLoop(RunOptions options, int items) {
        Sink sink = new Sink();
        new Pipeline(new SendingSource(items), sink).runAndWaitEnd(options);
        return sink.received;
    }

    /** Moves {@code items} through one {@link SpscArrayQueue} between two new threads; returns the count polled. */
    static long runRaw(int capacity, int items) throws InterruptedException {
        SpscArrayQueue<Object> queue = new SpscArrayQueue<>(capacity);
        long[] received = new long[1];
        Thread producer = new Thread(() -> produce(queue, items), "raw-producer");
        Thread consumer = new Thread(() -> received[0] = consume(queue, items), "raw-consumer");
        consumer.start();
        producer.start();
        producer.join();
        consumer.join();
        return received[0];
    }

    private static void produce(SpscArrayQueue<Object> queue, int items) {
        for (int i = 0; i < items; i++) {
            for (int failed = 0; !queue.offer(ITEM); failed++) {
                idle(failed);
            }
        }
    }

    private static long consume(SpscArrayQueue<Object> queue, int items) {
        long count = 0;
        for (int i = 0; i < items; i++) {
            for (int failed = 0; queue.poll() == null; failed++) {
                idle(failed);
            }
            count++;
        }
        return count;
    }

    private static void idle(int failed) {
        if (failed < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the machine may have other work: do not burn a core forever
        }
    }

    /** Stage 1: a source emitting the same object N times, then EOS. */
    static final class Source extends Node<Void, Object> {
        private final int items;
        private int sent;

        Source(int items) {
            this.items = items;
        }

        @Override
        protected Object svc(Void none) {
            return sent++ < items ? ITEM : eos();
        }
    }

    /** Stage 1 as FastFlow programs write it: every item sent from one {@code svc} call, then EOS. */
    static final class SendingSource extends Node<Void, Object> {
        private final int items;

        SendingSource(int items) {
            this.items = items;
        }

        @Override
        protected Object svc(Void none) {
            for (int i = 0; i < items; i++) {
                sendOut(ITEM);
            }
            return eos();
        }
    }

    /** Stage 2: an empty sink; counting costs one increment per item, as in the raw consumer. */
    static final class Sink extends Node<Object, Void> {
        long received;

        @Override
        protected Void svc(Object item) {
            received++;
            return goOn();
        }
    }
}
