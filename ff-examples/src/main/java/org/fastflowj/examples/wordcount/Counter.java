package org.fastflowj.examples.wordcount;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;

/**
 * C: merges the tables the splitters send it (its words only); when every splitter has ended, sends the
 * sum to the sink. Its checkpointed state is the merged table and the lines.
 */
class Counter extends Node<Counts, Counts> implements Checkpointed {
    private final HashMap<String, Long> words = new HashMap<>();
    private long lines;

    @Override
    protected Counts svc(Counts counts) {
        counts.addTo(words);
        lines += counts.lines();
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(new Counts(words, lines)); // delivered before the EOS
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(lines);
        WordState.writeWords(words, out);
    }

    @Override
    public void restore(DataInput in) throws IOException {
        lines = in.readLong();
        words.clear();
        WordState.readWords(in, words);
    }
}
