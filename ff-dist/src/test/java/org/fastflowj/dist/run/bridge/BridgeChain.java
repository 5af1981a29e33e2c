package org.fastflowj.dist.run.bridge;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.spi.CheckpointBarrier;

/**
 * Test fixture: a graph of two engine tasks on one forward edge, which no program compiles to (a bridge
 * feeding a bridge), and the tasks to put at its ends: one offers a script, control values included, the
 * other notes what it drains. A node would take a barrier itself, and only in a run with checkpoints.
 */
final class BridgeChain {
    private BridgeChain() {}

    /**
     * {@code producer -> consumer} in group G, the edge of the run's default capacity. A graph's parts are
     * built by ff-core's compiler and cut alone, so this builds them reflectively (tests run on the class
     * path; ff-core's own tests build them directly).
     */
    static Graph of(EngineTask producer, EngineTask consumer) {
        try {
            Constructor<Vertex> vertex =
                    Vertex.class.getDeclaredConstructor(int.class, String.class, EngineTask.class, String.class);
            vertex.setAccessible(true);
            Vertex from = vertex.newInstance(0, "producer", producer, "G");
            Vertex to = vertex.newInstance(1, "consumer", consumer, "G");
            Edge edge = new Edge(from, to, Edge.Kind.FORWARD, 0);
            link(from, "addOut", edge);
            link(to, "addIn", edge);
            Constructor<Graph> graph = Graph.class.getDeclaredConstructor(List.class, List.class);
            graph.setAccessible(true);
            return graph.newInstance(List.of(from, to), List.of(edge));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build a graph of two tasks: did Vertex or Graph change?", e);
        }
    }

    private static void link(Vertex vertex, String method, Edge edge) throws ReflectiveOperationException {
        Method m = Vertex.class.getDeclaredMethod(method, Edge.class);
        m.setAccessible(true);
        m.invoke(vertex, edge);
    }

    /**
     * Offers its script on forward output 0, a {@link CheckpointBarrier} as a barrier and anything else as
     * an item, then ends the output; without room it waits for room, as a bridge does, without blocking.
     */
    static final class Offering implements BridgeTask {
        private final List<Object> script;
        private BridgeChannels channels;
        private int next;
        private boolean done;

        Offering(List<Object> script) {
            this.script = script;
        }

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
        }

        @Override
        public int doWork() {
            int work = 0;
            channels.stopAwaitingRoom();
            for (; next < script.size(); next++, work++) {
                Object value = script.get(next);
                boolean offered = value instanceof CheckpointBarrier barrier
                        ? channels.offerBarrier(0, barrier)
                        : channels.offer(0, false, value);
                if (!offered) {
                    channels.awaitRoomOn(0, false);
                    return work;
                }
            }
            if (!channels.tryEndOutput(0, false)) {
                channels.awaitRoomOn(0, false);
                return work;
            }
            done = true;
            return work + 1;
        }

        @Override
        public boolean workPending() {
            return channels.hasRoom(0, false);
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}
    }

    /**
     * Drains its forward input 0 while {@link #open}, noting each item ({@link Chunk}s unrolled), barrier
     * and its end as {@code "item X"}, {@code "barrier ID"} and {@code "ended"}.
     */
    static final class Noting implements BridgeTask, BridgeChannels.InputEvents {
        final List<String> events = new CopyOnWriteArrayList<>();
        /** While false, nothing is drained: the channel fills as before a slow consumer. */
        volatile boolean open = true;

        private BridgeChannels channels;
        private boolean done;

        @Override
        public void init(BridgeChannels ch) {
            channels = ch;
        }

        @Override
        public int doWork() throws Exception {
            return open ? channels.drain(0, false, this, 16) : 0;
        }

        @Override
        public boolean workPending() {
            return open && channels.hasInput(0, false);
        }

        /** Nobody wakes it when the test opens it: it polls. */
        @Override
        public long maxParkNanos() {
            return TimeUnit.MILLISECONDS.toNanos(1);
        }

        @Override
        public boolean isDone() {
            return done;
        }

        @Override
        public void close() {}

        @Override
        public void item(int channel, boolean feedback, Object item) {
            if (item instanceof Chunk chunk) {
                for (int i = 0; i < chunk.size(); i++) {
                    events.add("item " + chunk.items[i]);
                }
            } else {
                events.add("item " + item);
            }
        }

        @Override
        public void barrier(int channel, long id) {
            events.add("barrier " + id);
        }

        @Override
        public void inputEnded(int channel) {
            events.add("ended");
            done = true;
        }

        @Override
        public void taskDone(int channel) {
            events.add("task done");
        }

        @Override
        public void feedbackEnded(int channel) {
            events.add("feedback ended");
        }
    }
}
