package org.fastflowj.examples.wordcount;

import org.fastflowj.core.MultiOutputNode;

/**
 * Sp: splits each line into words, maximal runs of non-whitespace characters (case and punctuation
 * kept), and sends each word to the counter owning it, by its hash: a word is always counted by the same
 * counter. When its input ends it tells counter 0 how many lines it split.
 */
final class Splitter extends MultiOutputNode<String, Object> {
    private long lines;

    /** The counter of {@code word} among {@code counters}. */
    static int owner(String word, int counters) {
        return Math.floorMod(word.hashCode(), counters);
    }

    @Override
    protected Object svc(String line) {
        lines++;
        int counters = outputChannels();
        int n = line.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                String word = line.substring(start, i);
                sendOutTo(word, owner(word, counters));
            }
        }
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOutTo(new LineCount(lines), 0);
    }
}
