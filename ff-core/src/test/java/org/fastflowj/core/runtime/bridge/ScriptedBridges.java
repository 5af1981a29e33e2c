package org.fastflowj.core.runtime.bridge;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.spi.CheckpointBarrier;

/**
 * Test fixtures: bridge tasks that stand at either end of one forward channel ({@code
 * org.fastflowj.core.graph.TaskGraphs#chain}), to see control values cross a bridge as they are offered
 * and drained.
 */
public final class ScriptedBridges {
    private ScriptedBridges() {}

    /**
     * Offers its script on forward output 0, a {@link CheckpointBarrier} as a barrier and anything else as
     * an item, then ends the output; without room it waits for room, as a bridge does, without blocking.
     */
    public static final class Offering implements BridgeTask {
        private final List<Object> script;
        private BridgeChannels channels;
        private int next;
        private boolean done;

        public Offering(List<Object> script) {
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
            while (next < script.size()) {
                if (!offerNext()) {
                    channels.awaitRoomOn(0, false);
                    return work;
                }
                next++;
                work++;
            }
            if (!channels.tryEndOutput(0, false)) {
                channels.awaitRoomOn(0, false);
                return work;
            }
            done = true;
            return work + 1;
        }

        private boolean offerNext() {
            Object value = script.get(next);
            return value instanceof CheckpointBarrier barrier
                    ? channels.offerBarrier(0, barrier)
                    : channels.offer(0, false, value);
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
     * Drains its forward input 0 while {@link #open}, noting each item ({@link Chunk}s unrolled) and its
     * end as {@code "item X"} and {@code "ended"}; it has no way of its own to carry barriers.
     */
    public static class Recording implements BridgeTask, BridgeChannels.InputEvents {
        public final List<String> events = new CopyOnWriteArrayList<>();
        /** While false, nothing is drained: the channel fills as before a slow consumer. */
        public volatile boolean open = true;

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

        /** Nobody wakes it when the test opens the gate: it polls. */
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

        @Override
        public String toString() {
            return "recording bridge";
        }
    }

    /** A {@link Recording} that carries barriers: each is noted as {@code "barrier ID"}. */
    public static final class RecordingBarriers extends Recording {
        @Override
        public void barrier(int channel, long id) {
            events.add("barrier " + id);
        }
    }
}
