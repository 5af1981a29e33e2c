package org.fastflowj.core.runtime.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.bridge.BridgeRunnerTest.LoopSender;
import org.fastflowj.core.runtime.bridge.BridgeRunnerTest.Wire;
import org.fastflowj.core.runtime.channel.Chunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bridge that never waits inside {@code doWork}: its output full, it keeps the chunk, names the output
 * ({@link BridgeChannels#awaitRoomOn}) and returns 0; the runner's idle step parks announced as waiting
 * for room there, and the consumer's takes wake it. A drain the bridge stops ({@link
 * BridgeChannels#stopDrain}) leaves the rest of its input queued.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BridgeWaitsWithoutBlockingTest {
    private static final Object END = BridgeRunnerTest.END;

    /** Offers what is on the wire downstream in chunks of up to 4, never waiting in doWork. */
    static final class WaitingReceiver implements BridgeTask {
        final Wire wire;
        final AtomicInteger zeroWhileFull = new AtomicInteger();
        BridgeChannels channels;
        Chunk chunk;
        boolean ending;
        boolean done;

        WaitingReceiver(Wire wire) {
            this.wire = wire;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
            wire.receiverParker = ch.parker();
        }

        @Override
        public int doWork() {
            if (!sendChunk() || (ending && !end())) {
                zeroWhileFull.incrementAndGet();
                return 0;
            }
            int work = 0;
            for (Object item = wire.items.poll(); item != null; item = wire.items.poll()) {
                work++;
                if (item == END) {
                    ending = true;
                    if (sendChunk()) {
                        end();
                    }
                    return work;
                }
                if (chunk == null) {
                    chunk = new Chunk(4);
                }
                chunk.add(item);
                if (chunk.isFull() && !sendChunk()) {
                    return work;
                }
            }
            sendChunk();
            return work;
        }

        /** False, keeping the chunk, while the output is full. */
        private boolean sendChunk() {
            if (chunk == null) {
                return true;
            }
            if (!channels.offer(0, false, chunk)) {
                channels.awaitRoomOn(0, false);
                return false;
            }
            channels.stopAwaitingRoom();
            chunk = null;
            return true;
        }

        private boolean end() {
            if (!channels.tryEndOutput(0, false)) {
                channels.awaitRoomOn(0, false);
                return false;
            }
            channels.stopAwaitingRoom();
            done = true;
            return true;
        }

        @Override
        public boolean workPending() {
            return chunk != null || ending ? channels.hasRoom(0, false) : !wire.items.isEmpty();
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}
    }

    /** Drains one item per call of drain: it stops the drain after each. */
    static final class OneAtATimeSender extends LoopSender {
        final List<Integer> drained = new CopyOnWriteArrayList<>();

        OneAtATimeSender(Wire wire) {
            super(wire);
        }

        @Override
        public int doWork() throws Exception {
            int n = channels.drain(0, false, this, 16);
            if (n > 0) {
                drained.add(n);
            }
            return n;
        }

        @Override
        public void item(int channel, boolean feedback, Object item) {
            super.item(channel, feedback, item);
            channels.stopDrain();
        }
    }

    /** Takes an item only with a permit. */
    static final class GatedSink extends Node<Long, Void> {
        final Semaphore gate = new Semaphore(0);
        final List<Long> items = new CopyOnWriteArrayList<>();
        final AtomicInteger ends = new AtomicInteger();

        @Override
        protected Void svc(Long item) throws InterruptedException {
            gate.acquire();
            items.add(item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.incrementAndGet();
        }
    }

    @Test
    void shouldReturnFromDoWorkWhileTheOutputIsFullAndGoOnOnceTheConsumerTakes() throws Exception {
        Wire wire = new Wire();
        GatedSink sink = new GatedSink();
        OneAtATimeSender sender = new OneAtATimeSender(wire);
        WaitingReceiver receiver = new WaitingReceiver(wire);
        Execution[] groups = start(counting(2_000), sink, sender, receiver);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (receiver.zeroWhileFull.get() == 0) {
            assertThat(System.nanoTime() - deadline)
                    .as("doWork returned 0 with its output full")
                    .isNegative();
            Thread.sleep(1);
        }
        assertThat(groups[1].isDone()).isFalse();
        sink.gate.release(Integer.MAX_VALUE / 2);
        groups[0].await();
        groups[1].await();

        assertThat(sink.items).hasSize(2_000);
        for (int i = 0; i < 2_000; i++) {
            assertThat(sink.items.get(i)).isEqualTo(i);
        }
        assertThat(sink.ends.get()).isEqualTo(1);
        assertThat(sender.drained).as("a stopped drain reports one value").containsOnly(1);
        NodeStats received = groups[1].stats().nodes().stream()
                .filter(s -> s.name().equals("ff-recv-G2"))
                .findFirst()
                .orElseThrow();
        assertThat(received.blockedOutputNanos())
                .as("its waits for room count as blocked out")
                .isPositive();
    }

    private static Execution[] start(Node<Void, Long> source, GatedSink sink, LoopSender sender, BridgeTask receiver) {
        Node<Long, Long> middle = Node.of((Long x) -> x);
        source.createGroup("G1");
        middle.createGroup("G2");
        sink.createGroup("G3");
        Graph whole = GraphCompiler.compile(new Pipeline(source, middle, sink));
        GraphCut.BridgeFactory bridges = new GraphCut.BridgeFactory() {
            @Override
            public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                return sender;
            }

            @Override
            public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                return receiver;
            }
        };
        RunOptions options = RunOptions.defaults().queueCapacity(8);
        return new Execution[] {
            Executor.start(GraphCut.forGroup(whole, "G1", bridges), options),
            Executor.start(GraphCut.forGroup(whole, "G3", bridges), options)
        };
    }

    private static Node<Void, Long> counting(long n) {
        AtomicLong next = new AtomicLong();
        return new Node<>() {
            @Override
            protected Long svc(Void none) {
                long i = next.getAndIncrement();
                if (i >= n) {
                    return eos();
                }
                return i;
            }
        };
    }
}
