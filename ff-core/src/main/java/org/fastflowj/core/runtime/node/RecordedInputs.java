package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.recovery.TakeRecorder;

/**
 * The {@link InputGate} of a node whose takes are heard by a {@link TakeRecorder}: the node's plain gate,
 * and after each item (or chunk) the channel it came from. Only such nodes have it, so no other node pays
 * for the call.
 *
 * <p>Threading: the node thread.
 */
final class RecordedInputs implements InputGate {
    private final InputGate plain;
    private final InputChannels in;
    private final TakeRecorder recorder;

    RecordedInputs(InputGate plain, InputChannels in, TakeRecorder recorder) {
        this.plain = plain;
        this.in = in;
        this.recorder = recorder;
    }

    @Override
    public Object next() throws Exception {
        Object item = plain.next();
        if (item != null && !in.currentFeedback) {
            recorder.took(in.currentChannel, item instanceof Chunk chunk ? chunk.size : 1);
        }
        return item;
    }
}
