package org.fastflowj.core.runtime.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.MultiInputNode;
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
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.channel.Parker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bridges as engine tasks, driven in one process: groups G1 and G3 of {@code source (G1) -> middle (G2)
 * -> sink (G3)}, G1's sender handing what it drains to G3's receiver in memory instead of over a network,
 * so the items leave one executor and enter another through two {@link BridgeRunner}s.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BridgeRunnerTest {
    static final Object END = new Object();

    /** The in-memory "network": what the sender drained, and where the receiver parks. */
    static final class Wire {
        final Queue<Object> items = new ConcurrentLinkedQueue<>();
        volatile Parker receiverParker;

        void send(Object item) {
            items.add(item);
            Parker p = receiverParker;
            if (p != null) {
                p.wake(); // after publishing: the waker's half of the handshake
            }
        }
    }

    /** Drains its one forward input onto the wire; done once the input ended. */
    static class LoopSender implements BridgeTask, BridgeChannels.InputEvents {
        final Wire wire;
        final List<String> events = new CopyOnWriteArrayList<>();
        BridgeChannels channels;
        boolean done;

        LoopSender(Wire wire) {
            this.wire = wire;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
        }

        @Override
        public int doWork() throws Exception {
            return channels.drain(0, false, this, 16);
        }

        @Override
        public boolean workPending() {
            return channels.hasInput(0, false);
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {
            events.add("close");
        }

        @Override
        public void item(int channel, boolean feedback, Object item) {
            wire.send(item);
        }

        @Override
        public void inputEnded(int channel) {
            events.add("ended " + channel);
            wire.send(END);
            done = true;
        }

        @Override
        public void taskDone(int channel) {
            events.add("mark " + channel);
        }

        @Override
        public void feedbackEnded(int channel) {
            events.add("feedback ended " + channel);
        }
    }

    /** Closes its input before it takes anything: a remote consumer that ended at once. */
    static final class ClosingSender extends LoopSender {
        long taken;

        ClosingSender(Wire wire) {
            super(wire);
        }

        @Override
        public void init(BridgeChannels ch) {
            super.init(ch);
            ch.closeInput(0, false);
        }

        @Override
        public void item(int channel, boolean feedback, Object item) {
            taken++; // dropped: its consumer is gone
        }
    }

    /**
     * Takes what is on the wire and offers it downstream in chunks of up to 4. Without room it holds the
     * chunk (or the end), names the output and returns; the runner's idle steps wait for the room.
     */
    static final class LoopReceiver implements BridgeTask {
        final Wire wire;
        BridgeChannels channels;
        Chunk chunk;
        /** A full chunk that found no room, or null. */
        Chunk held;

        boolean endHeld;
        boolean done;

        LoopReceiver(Wire wire) {
            this.wire = wire;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
            wire.receiverParker = ch.parker();
        }

        @Override
        public int doWork() {
            if (!flushHeld()) {
                return 0;
            }
            int work = 0;
            for (Object item = wire.items.poll(); item != null; item = wire.items.poll()) {
                work++;
                if (item == END) {
                    endHeld = true;
                    held = chunk;
                    chunk = null;
                    flushHeld();
                    return work;
                }
                if (chunk == null) {
                    chunk = new Chunk(4);
                }
                chunk.add(item);
                if (chunk.isFull()) {
                    held = chunk;
                    chunk = null;
                    if (!flushHeld()) {
                        return work;
                    }
                }
            }
            if (chunk != null) {
                held = chunk;
                chunk = null;
                flushHeld();
            }
            return work;
        }

        /** Offers what is held; false (and the output named for the runner's wait) if there is no room. */
        private boolean flushHeld() {
            if (held != null) {
                if (!channels.offer(0, false, held)) {
                    channels.awaitRoomOn(0, false);
                    return false;
                }
                held = null;
            }
            if (endHeld) {
                if (!channels.tryEndOutput(0, false)) {
                    channels.awaitRoomOn(0, false);
                    return false;
                }
                endHeld = false;
                done = true;
            }
            channels.stopAwaitingRoom();
            return true;
        }

        @Override
        public boolean workPending() {
            return held != null || endHeld ? channels.hasRoom(0, false) : !wire.items.isEmpty();
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        final List<Long> items = new CopyOnWriteArrayList<>();
        final List<Integer> ends = new CopyOnWriteArrayList<>();

        @Override
        protected Void svc(Long item) {
            items.add(item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add(channel);
        }
    }

    /**
     * Groups G1 and G3 of {@code source (G1) -> middle (G2) -> sink (G3)}, each run by an executor of its
     * own: G1's sender is {@code sender}, G3's receiver takes what it put on the wire (G2 is skipped).
     */
    private static Execution[] start(Node<Void, Long> source, Sink sink, LoopSender sender, Wire wire) {
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
                return new LoopReceiver(wire);
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

    @Test
    void shouldCarryEveryItemInOrderThroughTwoBridgeTasksAndEndTheSinkOnce() {
        Wire wire = new Wire();
        Sink sink = new Sink();
        LoopSender sender = new LoopSender(wire);
        Execution[] groups = start(counting(10_000), sink, sender, wire);
        groups[0].await();
        groups[1].await();

        assertThat(sink.items).hasSize(10_000);
        for (int i = 0; i < 10_000; i++) {
            assertThat(sink.items.get(i)).isEqualTo(i);
        }
        assertThat(sink.ends).containsExactly(0);
        assertThat(sender.events).containsExactly("ended 0", "close");
        NodeStats sent = groups[0].stats().nodes().stream()
                .filter(s -> s.name().equals("ff-send-G2"))
                .findFirst()
                .orElseThrow();
        NodeStats received = groups[1].stats().nodes().stream()
                .filter(s -> s.name().equals("ff-recv-G2"))
                .findFirst()
                .orElseThrow();
        assertThat(sent.itemsIn()).isEqualTo(10_000);
        assertThat(received.itemsOut()).as("chunks of up to 4").isBetween(2_500L, 10_000L);
    }

    @Test
    void shouldEndAClosedInputOnceItsProducerEndedEvenThoughItsEosWasDropped() {
        Wire wire = new Wire();
        Sink sink = new Sink();
        ClosingSender sender = new ClosingSender(wire);
        AtomicLong produced = new AtomicLong();
        Node<Void, Long> endless = new Node<>() {
            @Override
            protected Long svc(Void none) {
                return produced.incrementAndGet();
            }
        };
        Execution[] groups = start(endless, sink, sender, wire);
        groups[0].await();
        groups[1].await();

        // the source ended because its only consumer was gone (early termination), its EOS was dropped,
        // and the bridge still saw its input end, once
        assertThat(sender.events).containsExactly("ended 0", "close");
        assertThat(produced.get()).isPositive();
        assertThat(sink.items).isEmpty();
        assertThat(sink.ends).containsExactly(0);
    }
}
