package org.fastflowj.stream.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.checkpoint.Checkpointed;

/**
 * The first node of every stage with inputs: it takes the watermark as the minimum over its live input
 * channels (a channel that ended, or said it is idle, no longer holds it back), forwards a watermark only
 * when that minimum advanced, and wraps a plain item (from a block dropped into the stream) as a record
 * without a time. When every input ended it sends {@link Mark#END}, so the operators after it fire what
 * is open; when every input is idle it says so once downstream. Of the ticks its inputs send it
 * passes on about one per {@link Signal#TICK_MILLIS}.
 */
public final class HeadNode extends MultiInputNode<Object, Object> implements Checkpointed {
    private static final long TICK_GAP_NANOS = Signal.TICK_MILLIS * 1_000_000 / 2;

    private long[] channelMarks;
    private boolean[] ended;
    private boolean[] idle;
    private int idleChannels;
    private boolean saidIdle;
    private long current = Long.MIN_VALUE;
    private long lastTick;
    /** How far an input's watermark may run ahead of the forwarded one before it is held; MAX: never. */
    private final long maxDrift;
    /** Whether any input is held now: with none, a watermark that moves nothing far ahead costs no scan. */
    private boolean anyHeld;

    /** @param maxDrift see {@link #holdAhead}; Long.MAX_VALUE: every input is read as it comes */
    public HeadNode(long maxDrift) {
        if (maxDrift < 0) {
            throw new IllegalArgumentException("the watermark drift must not be negative: " + maxDrift);
        }
        this.maxDrift = maxDrift;
    }

    @Override
    protected Object svc(Object item) {
        if (idleChannels != 0 && !(item instanceof Signal)) {
            active(inputChannel());
        }
        if (item instanceof Rec || item instanceof SideRecord) {
            return item;
        }
        if (item instanceof Mark mark) {
            long[] marks = channels();
            int channel = inputChannel();
            marks[channel] = Math.max(marks[channel], mark.time);
            advance(channel);
            return goOn();
        }
        if (item instanceof Signal signal) {
            if (signal.isTick()) {
                long now = System.nanoTime();
                if (now - lastTick >= TICK_GAP_NANOS) {
                    lastTick = now;
                    sendOut(signal);
                }
            } else {
                channels();
                int channel = inputChannel();
                if (!idle[channel] && !ended[channel]) {
                    idle[channel] = true;
                    idleChannels++;
                    advance();
                }
            }
            return goOn();
        }
        return new Rec(item, Rec.NO_TIMESTAMP);
    }

    @Override
    protected void eosNotify(int channel) {
        channels();
        active(channel);
        ended[channel] = true;
        advance();
    }

    private void active(int channel) {
        if (idle[channel]) {
            idle[channel] = false;
            idleChannels--;
            saidIdle = false;
        }
    }

    private long[] channels() {
        if (channelMarks == null) {
            channelMarks = new long[inputChannels()];
            ended = new boolean[channelMarks.length];
            idle = new boolean[channelMarks.length];
            Arrays.fill(channelMarks, Long.MIN_VALUE);
        }
        return channelMarks;
    }

    private void advance() {
        advance(-1);
    }

    /** @param moved the input whose watermark just moved, -1: none (one ended or went idle) */
    private void advance(int moved) {
        long min = Long.MAX_VALUE;
        boolean anyEnded = false;
        boolean anyLive = false;
        for (int i = 0; i < channelMarks.length; i++) {
            if (ended[i]) {
                anyEnded = true;
            } else if (!idle[i]) {
                anyLive = true;
                min = Math.min(min, channelMarks[i]);
            }
        }
        if (!anyLive && !anyEnded) {
            // Every input is idle: no time to forward, but the stage after this one must know. (With some
            // ended and the rest idle, the minimum is the ended ones' end of time, as in Flink.)
            if (!saidIdle) {
                saidIdle = true;
                sendOut(Signal.IDLE);
            }
            return;
        }
        if (min > current) {
            current = min;
            sendOut(Mark.of(min));
        }
        if (maxDrift != Long.MAX_VALUE && (anyHeld || moved >= 0 && channelMarks[moved] > holdBound())) {
            holdAhead();
        }
    }

    /**
     * Watermark alignment: an input whose watermark is more than {@code maxDrift} past the forwarded one
     * is read only once the slowest input caught up. Without it, a fast input's records pile up in the
     * windows and joins after this node, waiting for the slow input's time to fire them. Results do not
     * change: the watermark is the minimum either way. Before every live input has a watermark, nothing
     * is held (an input without timestamps never gets one).
     */
    private void holdAhead() {
        long bound = holdBound();
        boolean held = false;
        for (int i = 0; i < channelMarks.length; i++) {
            boolean ahead = !ended[i] && !idle[i] && channelMarks[i] > bound;
            if (ahead) {
                holdInput(i);
            } else if (anyHeld) {
                releaseInput(i);
            }
            held |= ahead;
        }
        anyHeld = held;
    }

    /** The watermark past which an input is held: MAX while some live input has none. */
    private long holdBound() {
        long bound = current + maxDrift;
        return current == Long.MIN_VALUE || bound < current ? Long.MAX_VALUE : bound;
    }

    /**
     * The watermark of each input and the one forwarded; at an aligned barrier every input is at it. An
     * input's end or idleness is not kept: the restarted inputs say it again.
     */
    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(current);
        // Before the run its inputs are not counted yet: a restart from there starts from no watermark.
        out.writeInt(channelMarks == null ? -1 : channelMarks.length);
        if (channelMarks != null) {
            for (long mark : channelMarks) {
                out.writeLong(mark);
            }
        }
    }

    @Override
    public void restore(DataInput in) throws IOException {
        long[] marks = channels();
        current = in.readLong();
        int count = in.readInt();
        if (count < 0) {
            Arrays.fill(marks, Long.MIN_VALUE);
            return;
        }
        if (count != marks.length) {
            throw new IOException("a checkpoint of " + count + " inputs for a stream input of " + marks.length);
        }
        for (int i = 0; i < count; i++) {
            marks[i] = in.readLong();
        }
    }

    @Override
    public String toString() {
        return "stream input";
    }
}
