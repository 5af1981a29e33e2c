package org.fastflowj.stream.internal;

import org.fastflowj.core.MultiInputNode;

/**
 * The first node of every stage with inputs: it takes the watermark as the minimum over its live input
 * channels (a channel that ended no longer holds it back), forwards a watermark only when that minimum
 * advanced, and wraps a plain item (from a block dropped into the stream) as a record without a time.
 * When every input ended it sends {@link Mark#END}, so the operators after it fire what is open.
 */
public final class HeadNode extends MultiInputNode<Object, Object> {
    private long[] channelMarks;
    private boolean[] ended;
    private long current = Long.MIN_VALUE;

    @Override
    protected Object svc(Object item) {
        if (item instanceof Rec) {
            return item;
        }
        if (item instanceof Mark mark) {
            long[] marks = channels();
            int channel = inputChannel();
            marks[channel] = Math.max(marks[channel], mark.time);
            advance();
            return goOn();
        }
        return new Rec(item, Rec.NO_TIMESTAMP);
    }

    @Override
    protected void eosNotify(int channel) {
        channels();
        ended[channel] = true;
        advance();
    }

    private long[] channels() {
        if (channelMarks == null) {
            channelMarks = new long[inputChannels()];
            ended = new boolean[channelMarks.length];
            java.util.Arrays.fill(channelMarks, Long.MIN_VALUE);
        }
        return channelMarks;
    }

    private void advance() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < channelMarks.length; i++) {
            if (!ended[i]) {
                min = Math.min(min, channelMarks[i]);
            }
        }
        if (min > current) {
            current = min;
            sendOut(Mark.of(min));
        }
    }

    @Override
    public String toString() {
        return "stream input";
    }
}
