package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.serial.ItemCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine tasks never wait inside {@code doWork}: a sender without credit keeps its batch and returns
 * 0, and sends it once an acknowledgement comes back; a receiver whose local channel is full keeps the
 * rest of its batch and returns 0, and goes on once the consumer takes. Either way nothing is lost or
 * duplicated, and the run ends cleanly. A blocking task would never return 0 in those states: its
 * {@code doWork} would still be waiting.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NonBlockingTasksTest {
    private static final int EDGE = 0;
    private static final SerializationConfig SERIALIZATION = SerializationConfig.defaults();
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final List<Transport> transports = new ArrayList<>();
    private final ExecutorService remoteSender = Executors.newSingleThreadExecutor();
    private Execution execution;
    private InboundLink inbound;

    @AfterEach
    void stop() throws InterruptedException {
        remoteSender.shutdownNow();
        assertThat(remoteSender.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        if (execution != null && !execution.isDone()) {
            execution.cancel();
            execution.await(10, TimeUnit.SECONDS);
        }
        transports.forEach(Transport::close);
        if (inbound != null) {
            inbound.drop();
        }
    }

    @Test
    void senderShouldReturnWithoutCreditAndSendItsWaitingBatchOnceAnAckComes() throws Exception {
        long items = 40;
        BlockingQueue<ByteBuf> received = new LinkedBlockingQueue<>();
        AtomicReference<PeerLink> receiverSide = new AtomicReference<>();
        transports.add(Transport.start(settings("B"), LOOPBACK, Set.of("A"), new Handler() {
            @Override
            public void onOpen(PeerLink l) {
                receiverSide.set(l);
            }

            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                if (type == Frames.BATCH) {
                    received.add(payload); // the test acknowledges it when it chooses
                } else {
                    payload.release();
                }
            }
        }));
        OutboundLink out = new OutboundLink("A", "B", 1, 1L << 30, new int[] {EDGE}, new int[0]);
        Transport sending = Transport.start(settings("A"), LOOPBACK, Set.of(), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                try {
                    if (type == Frames.ACK) { // GONE too may come back, once the sink ended
                        out.onAck(payload.readInt(), payload.readLong());
                    }
                } finally {
                    payload.release();
                }
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {
                out.onClosed(cause);
            }
        });
        transports.add(sending);
        out.open(sending.connect("B", transports.get(0).boundAddress()));
        SenderTask sender =
                new SenderTask(out, new int[] {EDGE}, new int[0], new int[] {0}, 4, 100, 1 << 20, SERIALIZATION);
        Observed observed = new Observed(sender, sender::batchWaitsForCredit);
        execution = Executor.start(groupGraph("A", observed, null, items, null), RunOptions.defaults());

        ByteBuf first = received.poll(10, TimeUnit.SECONDS);
        assertThat(first).as("the first batch, on the one credit").isNotNull();
        awaitTrue(() -> observed.zeroWhileWaiting.get() > 0, "doWork returned 0 with a batch waiting for credit");
        assertThat(out.windowOpen()).isFalse();
        assertThat(received).as("nothing sent beyond the credit").isEmpty();
        assertThat(execution.isDone()).isFalse();

        Decoded decoded = new Decoded();
        decoded.read(first);
        acknowledge(receiverSide.get(), first);
        while (!decoded.ended) {
            ByteBuf batch = received.poll(10, TimeUnit.SECONDS);
            assertThat(batch).as("the next batch, once credit came back").isNotNull();
            decoded.read(batch);
            if (decoded.ended) { // the last ACK waits: the sender must wait for it without blocking
                awaitTrue(() -> observed.zeroWhileFinishing.get() > 0, "doWork returned 0 awaiting the last ACK");
                assertThat(execution.isDone())
                        .as("done only once every batch was acknowledged")
                        .isFalse();
            }
            acknowledge(receiverSide.get(), batch);
        }
        assertThat(execution.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(decoded.items)
                .as("every item once, in order")
                .containsExactlyElementsOf(LongStream.range(0, items).boxed().toList());
        assertThat(out.hasUnacknowledged()).isFalse();
        assertThat(out.stats().batches()).isGreaterThanOrEqualTo(items / 4);
    }

    @Test
    void senderShouldEndWhenCancelledWhileItsBatchWaitsForCredit() throws Exception {
        BlockingQueue<ByteBuf> received = new LinkedBlockingQueue<>();
        transports.add(Transport.start(settings("B"), LOOPBACK, Set.of("A"), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                received.add(payload); // never acknowledged
            }
        }));
        OutboundLink out = new OutboundLink("A", "B", 1, 1L << 30, new int[] {EDGE}, new int[0]);
        Transport sending = Transport.start(settings("A"), LOOPBACK, Set.of(), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                payload.release();
            }
        });
        transports.add(sending);
        out.open(sending.connect("B", transports.get(0).boundAddress()));
        SenderTask sender =
                new SenderTask(out, new int[] {EDGE}, new int[0], new int[] {0}, 4, 100, 1 << 20, SERIALIZATION);
        Observed observed = new Observed(sender, sender::batchWaitsForCredit);
        execution = Executor.start(groupGraph("A", observed, null, 1_000, null), RunOptions.defaults());
        try {
            ByteBuf first = received.poll(10, TimeUnit.SECONDS);
            assertThat(first).as("the first batch, on the one credit").isNotNull();
            first.release();
            awaitTrue(() -> observed.zeroWhileWaiting.get() > 0, "doWork returned 0 with a batch waiting for credit");

            execution.cancel();

            assertThatThrownBy(() -> execution.await(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
            assertThat(execution.isDone()).isTrue();
        } finally {
            received.forEach(ByteBuf::release);
        }
    }

    @Test
    void receiverShouldReturnWhileItsChannelIsFullAndGoOnOnceTheConsumerTakes() throws Exception {
        runReceiverAgainstAGatedSink(1L << 30, 4, false);
    }

    @Test
    void receiverShouldReturnWhileTheByteBoundHoldsItBackAndGoOnOnceTheConsumerTakes() throws Exception {
        // A bound a few items large: the channel (512 slots) has room, the byte bound does not.
        runReceiverAgainstAGatedSink(64, 512, false);
    }

    @Test
    void receiverShouldEndWhenCancelledWhileARunWaitsForRoom() throws Exception {
        runReceiverAgainstAGatedSink(1L << 30, 4, true);
    }

    private void runReceiverAgainstAGatedSink(long maxBufferedBytes, int queueCapacity, boolean cancel)
            throws Exception {
        long items = 60;
        InboundLink in = new InboundLink("B", "A", 256, maxBufferedBytes);
        inbound = in;
        transports.add(Transport.start(settings("B"), LOOPBACK, Set.of("A"), new Handler() {
            @Override
            public void onOpen(PeerLink l) {
                in.onOpen(l);
            }

            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                if (type == Frames.BATCH) {
                    in.onBatch(payload);
                } else {
                    payload.release();
                }
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {
                in.onClosed(cause);
            }
        }));
        // The remote sender keeps within the receiver's bounds, as a correct one does (else the run fails).
        OutboundLink out = new OutboundLink("A", "B", 256, maxBufferedBytes, new int[] {EDGE}, new int[0]);
        Transport sending = Transport.start(settings("A"), LOOPBACK, Set.of(), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                try {
                    if (type == Frames.ACK) { // GONE too may come back, once the sink ended
                        out.onAck(payload.readInt(), payload.readLong());
                    }
                } finally {
                    payload.release();
                }
            }
        });
        transports.add(sending);
        out.open(sending.connect("B", transports.get(0).boundAddress()));
        ReceiverTask receiver = new ReceiverTask(
                in, new int[] {EDGE}, new int[0], new boolean[1], new boolean[1], 30_000, 4, SERIALIZATION);
        Observed observed = new Observed(receiver, receiver::waitsForRoom);
        Semaphore gate = new Semaphore(0);
        List<Long> taken = new CopyOnWriteArrayList<>();
        execution = Executor.start(
                groupGraph("B", null, observed, items, new GatedSink(gate, taken)),
                RunOptions.defaults().queueCapacity(queueCapacity));

        // The remote sender, on a thread of its own: batches of 4 items, then the end of the edge.
        Future<?> sent = remoteSender.submit(() -> {
            BatchWriter writer =
                    new BatchWriter(out, new ItemCodec(SERIALIZATION), new BatchSizer(4, 100_000), 1 << 20);
            for (long i = 0; i < items; i++) {
                writer.item(i, EDGE);
                if (writer.isFull()) {
                    flushWaitingForCredit(writer);
                }
            }
            writer.mark(Frames.EOS, EDGE);
            flushWaitingForCredit(writer);
            return null;
        });

        awaitTrue(() -> observed.zeroWhileWaiting.get() > 0, "doWork returned 0 with a run waiting for room");
        assertThat(out.hasUnacknowledged())
                .as("the half-read batch is not acknowledged")
                .isTrue();
        assertThat(execution.isDone()).isFalse();
        if (cancel) {
            execution.cancel();
            assertThatThrownBy(() -> execution.await(10, TimeUnit.SECONDS)).isInstanceOf(RuntimeException.class);
            assertThat(execution.isDone()).isTrue();
            return; // the half-read batch was released: the leak check after this class would see it
        }

        gate.release(Integer.MAX_VALUE / 2);
        sent.get(20, TimeUnit.SECONDS);
        assertThat(execution.await(20, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> !out.hasUnacknowledged(), "every batch acknowledged");

        assertThat(taken)
                .as("every item once, in order")
                .containsExactlyElementsOf(LongStream.range(0, items).boxed().toList());
    }

    /**
     * One group's graph of a source (group A) to sink (group B) pipeline, its bridge the given task: the
     * sender in A, or the receiver in B ahead of {@code sink}.
     */
    private static Graph groupGraph(
            String group, BridgeTask sender, BridgeTask receiver, long items, Node<Long, Void> sink) {
        Node<Void, Long> source = new Node<>() {
            private long next;

            @Override
            protected Long svc(Void none) {
                return next < items ? Long.valueOf(next++) : eos();
            }
        };
        Node<Long, Void> end = sink != null ? sink : new GatedSink(new Semaphore(Integer.MAX_VALUE), new ArrayList<>());
        source.createGroup("A");
        end.createGroup("B");
        Graph whole = GraphCompiler.compile(new Pipeline(source, end));
        return GraphCut.forGroup(whole, group, new GraphCut.BridgeFactory() {
            @Override
            public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                assertThat(sender).as("a sender in group " + group).isNotNull();
                return sender;
            }

            @Override
            public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                assertThat(receiver).as("a receiver in group " + group).isNotNull();
                return receiver;
            }
        });
    }

    /** Takes an item only with a permit: while the test holds them, its input channel fills. */
    private static final class GatedSink extends Node<Long, Void> {
        private final Semaphore gate;
        private final List<Long> taken;

        GatedSink(Semaphore gate, List<Long> taken) {
            this.gate = gate;
            this.taken = taken;
        }

        @Override
        protected Void svc(Long item) throws InterruptedException {
            gate.acquire();
            taken.add(item);
            return goOn();
        }
    }

    /**
     * The real task, counting the calls of {@code doWork} that returned 0 while the task held something
     * back ({@code waiting}), and while only the last acknowledgements were left (a sender that ended).
     */
    private static final class Observed implements BridgeTask {
        private final BridgeTask task;
        private final BooleanSupplier waiting;
        final AtomicInteger zeroWhileWaiting = new AtomicInteger();
        final AtomicInteger zeroWhileFinishing = new AtomicInteger();

        Observed(BridgeTask task, BooleanSupplier waiting) {
            this.task = task;
            this.waiting = waiting;
        }

        @Override
        public void init(BridgeChannels channels) throws Exception {
            task.init(channels);
        }

        @Override
        public int doWork() throws Exception {
            int work = task.doWork();
            if (work == 0 && waiting.getAsBoolean()) {
                zeroWhileWaiting.incrementAndGet();
            }
            if (work == 0 && task instanceof SenderTask s && s.awaitsLastAcks()) {
                zeroWhileFinishing.incrementAndGet();
            }
            return work;
        }

        @Override
        public void onIdle(boolean aboutToPark) throws Exception {
            task.onIdle(aboutToPark);
        }

        @Override
        public boolean workPending() {
            return task.workPending();
        }

        @Override
        public long maxParkNanos() {
            return task.maxParkNanos();
        }

        @Override
        public boolean isDone() {
            return task.isDone();
        }

        @Override
        public void close() throws Exception {
            task.close();
        }

        @Override
        public void abort() {
            task.abort();
        }

        @Override
        public int inputChunkCapacity() {
            return task.inputChunkCapacity();
        }
    }

    /** What the batches the sender sent hold, decoded as a receiver would. */
    private static final class Decoded implements BatchReader.Outputs {
        private final BatchReader reader =
                new BatchReader("A", new int[] {EDGE}, new int[0], new ItemCodec(SERIALIZATION));
        final List<Long> items = new ArrayList<>();
        boolean ended;

        void read(ByteBuf batch) {
            reader.start();
            assertThat(reader.readOn(batch.duplicate(), this)).isTrue();
        }

        @Override
        public void item(int output, Object item, int bytes) {
            assertThat(ended).as("an item after the end").isFalse();
            items.add((Long) item);
        }

        @Override
        public void taskDone(int output) {
            throw new AssertionError("no task marks in this stream");
        }

        @Override
        public void barrier(int output, long id) {
            throw new AssertionError("no checkpoint barriers in this stream");
        }

        @Override
        public void ended(int output) {
            assertThat(ended).as("a second end").isFalse();
            ended = true;
        }
    }

    /** The test thread's sending: a batch refused for credit is offered again until it goes. */
    private static void flushWaitingForCredit(BatchWriter writer) throws InterruptedException {
        if (!writer.flush()) {
            while (!writer.sendPending()) {
                Thread.sleep(1);
            }
        }
    }

    private static void acknowledge(PeerLink link, ByteBuf batch) {
        long bytes = batch.readableBytes(); // the payload, as the receiver counts it (InboundLink#onBatch)
        batch.release();
        link.send(Frames.ACK, link.alloc().buffer(12).writeInt(1).writeLong(bytes));
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(1);
        }
    }

    private static WireSettings settings(String group) {
        return WireSettings.defaults(group, 42);
    }

    private abstract static class Handler implements PeerHandler {
        @Override
        public void onOpen(PeerLink l) {}

        @Override
        public void onClosed(PeerLink l, Throwable cause) {}
    }
}
