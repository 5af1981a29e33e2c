package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.runtime.node.NodeRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One contract for both kinds of thread at channel ends, as one sanity suite runs over every queue: in
 * {@code source -> middle -> sink}, the middle is a node runner, or two bridge runners (an engine task
 * that drains the source's channel onto an in-memory wire, and one that offers what the wire brings to
 * the sink's channel, each never blocking in {@code doWork}). Both must behave alike when their input is
 * empty (they park), their output is full (they park for room and lose nothing), their input ends (one
 * end reaches the sink, after every item), a single item follows a long idle (it is woken for that one
 * item), and their consumer abandons them (they stop, and so does the producer feeding them).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChannelEndContractTest {
    private static final Long END = Long.MIN_VALUE;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    enum Middle {
        NODE,
        BRIDGES
    }

    @ParameterizedTest
    @EnumSource(Middle.class)
    void anEmptyInputParksTheMiddleUntilAnItemComes(Middle kind) throws Exception {
        Feed feed = new Feed();
        Sink sink = new Sink();
        try (Run run = Run.start(kind, feed, sink)) {
            awaitTrue("the middle parks waiting for input", () -> waitsFor(run.consumingEnd(), Parker.WAIT_INPUT));
            feed.items.add(7L);
            awaitTrue("the item reaches the sink", () -> sink.items.size() == 1);
            feed.items.add(END);
            run.awaitEnd();
        }
        assertThat(sink.items).containsExactly(7L);
    }

    @ParameterizedTest
    @EnumSource(Middle.class)
    void aFullOutputParksTheMiddleForRoomAndLosesNothing(Middle kind) throws Exception {
        Feed feed = new Feed();
        Sink sink = new Sink();
        sink.stalled = new CountDownLatch(1);
        int n = 500;
        try (Run run = Run.start(kind, feed, sink)) {
            for (long i = 0; i < n; i++) {
                feed.items.add(i);
            }
            awaitTrue("the middle parks waiting for room", () -> waitsFor(run.producingEnd(), Parker.WAIT_OUTPUT));
            sink.stalled.countDown();
            feed.items.add(END);
            run.awaitEnd();
        }
        assertThat(sink.items).containsExactlyElementsOf(numbers(n));
    }

    @ParameterizedTest
    @EnumSource(Middle.class)
    void anEndedInputEndsTheMiddleOnceAfterEveryItem(Middle kind) throws Exception {
        Feed feed = new Feed();
        Sink sink = new Sink();
        int n = 20_000;
        try (Run run = Run.start(kind, feed, sink)) {
            for (long i = 0; i < n; i++) {
                feed.items.add(i);
            }
            feed.items.add(END);
            run.awaitEnd();
            assertThat(run.consumingEnd().consumed()[0].consumerGone)
                    .as("the middle marked its input gone")
                    .isTrue();
            assertThat(run.producingEnd().produced()[0].producerDone)
                    .as("the middle marked its output done")
                    .isTrue();
        }
        assertThat(sink.items).containsExactlyElementsOf(numbers(n));
        assertThat(sink.ends.get()).as("end of stream at the sink").isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Middle.class)
    void aSingleItemAfterALongIdleGoesThrough(Middle kind) throws Exception {
        Feed feed = new Feed();
        Sink sink = new Sink();
        try (Run run = Run.start(kind, feed, sink)) {
            awaitTrue(
                    "the middle and the sink idle in long parks",
                    () -> longPark(run.consumingEnd()) && longPark(run.sinkEnd()));
            feed.items.add(42L); // one item, no end: only a wake-up for that single item delivers it
            awaitTrue("the single item reaches the sink", () -> sink.items.size() == 1);
            feed.items.add(END);
            run.awaitEnd();
        }
        assertThat(sink.items).containsExactly(42L);
    }

    @ParameterizedTest
    @EnumSource(Middle.class)
    void anAbandonedMiddleStopsAndSoDoesItsProducer(Middle kind) throws Exception {
        AtomicLong produced = new AtomicLong();
        Node<Void, Long> endless = new Node<>() {
            @Override
            protected Long svc(Void none) {
                return produced.getAndIncrement();
            }
        };
        Sink sink = new Sink();
        sink.stopAfter = 100;
        try (Run run = Run.start(kind, endless, sink)) {
            run.awaitEnd();
        }
        assertThat(sink.items).containsExactlyElementsOf(numbers(100));
        assertThat(produced.get()).as("the source ran, then stopped").isGreaterThanOrEqualTo(100);
    }

    /*
     * The wake-ups both kinds of runner rely on, at the channel they share: a runner parked for a single
     * item would also get it when its park times out, so the runs above cannot tell a wake-up from a
     * time-out; the park states here can (a waker's CAS sets RUNNING).
     */

    @Test
    void aProducerWakesAShortParkedConsumerForABatchAndALongParkedOneForASingleItem() {
        ChannelEnd producer = unwiredRunner();
        ChannelEnd consumer = unwiredRunner();
        SpscChannel channel = SpscChannel.bounded(256, false, "contract");
        channel.producer = producer;
        channel.consumer = consumer;
        channel.wakeBatch = 16;

        consumer.announce(Parker.WAIT_INPUT);
        int puts = 0;
        for (long i = 0; i < 15; i++) {
            channel.offer(i);
            channel.offered(++puts);
        }
        assertThat(consumer.state).as("a short park waits for a batch").isEqualTo(Parker.WAIT_INPUT);
        channel.offer(15L);
        channel.offered(++puts);
        assertThat(consumer.state).as("woken once the batch is queued").isEqualTo(Parker.RUNNING);

        while (channel.poll() != null) {
            // drained
        }
        consumer.announce(Parker.WAIT_INPUT | Parker.LONG);
        channel.offer(16L);
        channel.offered(++puts);
        assertThat(consumer.state).as("a long park is woken by one item").isEqualTo(Parker.RUNNING);
    }

    @Test
    void aConsumerWakesAProducerParkedForRoomOnceTheChannelDrainedToItsLowWaterMark() {
        ChannelEnd producer = unwiredRunner();
        ChannelEnd consumer = unwiredRunner();
        SpscChannel channel = SpscChannel.bounded(256, false, "contract");
        channel.producer = producer;
        channel.consumer = consumer;
        while (channel.offer(0L)) {
            // filled
        }
        producer.waitTarget = channel;
        producer.announce(Parker.WAIT_OUTPUT);
        int takes = 0;
        while (channel.queue.size() > channel.lowWater + 16) {
            channel.poll();
            channel.tookOne(++takes);
        }
        assertThat(producer.state).as("above the low-water mark it sleeps on").isEqualTo(Parker.WAIT_OUTPUT);
        while (producer.state != Parker.RUNNING && channel.poll() != null) {
            channel.tookOne(++takes);
        }
        assertThat(channel.queue.size()).as("woken at the mark, not before").isLessThanOrEqualTo(channel.lowWater);
        assertThat(channel.queue.size()).isGreaterThan(channel.lowWater - 16);
        assertThat(producer.state).as("woken for room").isEqualTo(Parker.RUNNING);
    }

    private static ChannelEnd unwiredRunner() {
        return NodeRunner.create(
                GraphCompiler.compile(Node.<Object, Object>of(x -> x))
                        .vertices()
                        .get(0),
                new RunControl(RunHooks.NONE),
                IdlePolicy.of(WaitStrategy.BACKOFF, false),
                -1,
                false,
                null); // never runs its node: only its parker and channel ends are used
    }

    // ---- the graphs ----

    /** One run of the graph, in one executor (a node in the middle) or two joined by bridges. */
    private record Run(List<Execution> groups, String consuming, String producing) implements AutoCloseable {
        static Run start(Middle kind, Node<Void, Long> source, Sink sink) {
            // short channels, so that a stalled sink fills the middle's output at once; a park soon
            RunOptions options = RunOptions.defaults().queueCapacity(8).waitStrategy(WaitStrategy.BACKOFF);
            source.named("source");
            sink.named("sink");
            if (kind == Middle.NODE) {
                Node<Long, Long> middle = Node.of("middle", (Long x) -> x);
                Graph graph = GraphCompiler.compile(new Pipeline(source, middle, sink));
                return new Run(List.of(Executor.start(graph, options)), "middle", "middle");
            }
            Node<Long, Long> middle = Node.of("middle", (Long x) -> x);
            source.createGroup("G1");
            middle.createGroup("G2");
            sink.createGroup("G3");
            Graph whole = GraphCompiler.compile(new Pipeline(source, middle, sink));
            Wire wire = new Wire();
            GraphCut.BridgeFactory bridges = new GraphCut.BridgeFactory() {
                @Override
                public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                    return new WireSender(wire);
                }

                @Override
                public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                    return new WireReceiver(wire);
                }
            };
            List<Execution> groups = new ArrayList<>();
            groups.add(Executor.start(GraphCut.forGroup(whole, "G1", bridges), options));
            groups.add(Executor.start(GraphCut.forGroup(whole, "G3", bridges), options));
            return new Run(groups, "ff-send-G2", "ff-recv-G2");
        }

        ChannelEnd consumingEnd() {
            return find(consuming);
        }

        ChannelEnd producingEnd() {
            return find(producing);
        }

        ChannelEnd sinkEnd() {
            return find("sink");
        }

        private ChannelEnd find(String name) {
            for (Execution group : groups) {
                ChannelEnd end = group.runner(name);
                if (end != null) {
                    return end;
                }
            }
            throw new AssertionError("no runner named " + name);
        }

        void awaitEnd() {
            for (Execution group : groups) {
                assertThat(group.await(20, TimeUnit.SECONDS)).as("the run ends").isTrue();
            }
        }

        @Override
        public void close() {
            for (Execution group : groups) {
                group.cancel();
            }
        }
    }

    /** A source that sends what the test queues, and ends at {@link #END}. */
    static final class Feed extends Node<Void, Long> {
        final BlockingQueue<Long> items = new LinkedBlockingQueue<>();

        @Override
        protected Long svc(Void none) throws InterruptedException {
            Long item = items.take();
            return item.equals(END) ? eos() : item;
        }
    }

    static final class Sink extends Node<Long, Void> {
        final List<Long> items = new CopyOnWriteArrayList<>();
        final AtomicLong ends = new AtomicLong();
        /** Opened by the test: until then the sink takes nothing after its first item. */
        volatile CountDownLatch stalled;
        /** The sink ends its stream after this many items (0: never). */
        int stopAfter;

        @Override
        protected Void svc(Long item) throws InterruptedException {
            CountDownLatch gate = stalled;
            if (gate != null) {
                gate.await();
            }
            items.add(item);
            return stopAfter > 0 && items.size() == stopAfter ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.incrementAndGet();
        }
    }

    /** The in-memory "network" between the two bridges, each way. */
    static final class Wire {
        final BlockingQueue<Long> items = new LinkedBlockingQueue<>();
        volatile boolean consumerGone;
        volatile Parker receiver;
        volatile Parker sender;

        void send(Long item) {
            items.add(item);
            wake(receiver);
        }

        void abandon() {
            consumerGone = true;
            wake(sender);
        }

        private static void wake(Parker p) {
            if (p != null) {
                p.wake(); // after publishing: the waker's half of the handshake
            }
        }
    }

    /** Drains its input onto the wire; closes it once the far side's consumer is gone. */
    static final class WireSender implements BridgeTask, BridgeChannels.InputEvents {
        private final Wire wire;
        private BridgeChannels channels;
        private boolean closed;
        private boolean done;

        WireSender(Wire wire) {
            this.wire = wire;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
            wire.sender = ch.parker();
        }

        @Override
        public int doWork() throws Exception {
            if (wire.consumerGone && !closed) {
                closed = true;
                channels.closeInput(0, false);
                return 1;
            }
            return channels.drain(0, false, this, 16);
        }

        @Override
        public boolean workPending() {
            return channels.hasInput(0, false) || (wire.consumerGone && !closed);
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}

        @Override
        public void item(int channel, boolean feedback, Object item) {
            wire.send((Long) item);
        }

        @Override
        public void inputEnded(int channel) {
            wire.send(END);
            done = true;
        }

        @Override
        public void taskDone(int channel) {}

        @Override
        public void feedbackEnded(int channel) {}
    }

    /**
     * Offers what the wire brings; without room it holds the item, names the output and returns, so its
     * runner waits for the room. Tells the wire when its consumer is gone.
     */
    static final class WireReceiver implements BridgeTask {
        private final Wire wire;
        private BridgeChannels channels;
        private Long held;
        private boolean done;

        WireReceiver(Wire wire) {
            this.wire = wire;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
            wire.receiver = ch.parker();
        }

        @Override
        public int doWork() {
            int work = 0;
            while (!done) {
                Long item = held != null ? held : wire.items.poll();
                if (item == null) {
                    break;
                }
                held = item;
                boolean taken = item.equals(END) ? channels.tryEndOutput(0, false) : channels.offer(0, false, item);
                if (!taken) {
                    channels.awaitRoomOn(0, false);
                    return work;
                }
                channels.stopAwaitingRoom();
                held = null;
                work++;
                done = item.equals(END);
                if (!done && channels.outputGone(0, false) && !wire.consumerGone) {
                    wire.abandon();
                }
            }
            return work;
        }

        @Override
        public boolean workPending() {
            return held != null ? channels.hasRoom(0, false) : !wire.items.isEmpty();
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}
    }

    // ---- helpers ----

    private static boolean waitsFor(ChannelEnd end, int kind) {
        return (end.state & kind) != 0;
    }

    private static boolean longPark(ChannelEnd end) {
        return (end.state & Parker.LONG) != 0 && Parker.waitsForInput(end.state);
    }

    private static List<Long> numbers(int n) {
        List<Long> all = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            all.add(i);
        }
        return all;
    }

    /** Polls {@code condition} until it holds; fails the test after the deadline (never hangs). */
    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out: " + what);
            }
            Thread.sleep(1);
        }
    }
}
