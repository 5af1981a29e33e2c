package org.fastflowj.examples.wordcount;

import java.util.HashMap;
import org.fastflowj.core.Node;

/** C: merges the tables the splitters send it (its words only); when every splitter has ended, sends the sum to the sink. */
final class Counter extends Node<Counts, Counts> {
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
}
