package org.fastflowj.examples.wordcount;

import java.util.HashMap;
import org.fastflowj.core.Node;

/** C: counts the words it is sent; when every splitter has ended, sends its {@link Counts} to the sink. */
final class Counter extends Node<Object, Counts> {
    private final HashMap<String, Long> words = new HashMap<>();
    private long lines;

    @Override
    protected Counts svc(Object item) {
        if (item instanceof String word) {
            words.merge(word, 1L, Long::sum);
        } else {
            lines += ((LineCount) item).lines();
        }
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(new Counts(words, lines)); // delivered before the EOS
    }
}
