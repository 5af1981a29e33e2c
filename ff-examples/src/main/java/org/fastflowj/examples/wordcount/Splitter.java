package org.fastflowj.examples.wordcount;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.checkpoint.IncrementalCheckpointed;

/**
 * Sp: splits each chunk of lines into words, maximal runs of non-whitespace characters (case and
 * punctuation kept), and counts each word in the table of the counter owning it, by its hash: a word is
 * always counted by the same counter. The tables go to their counters when the input ends (the lines
 * split go to counter 0), or earlier when one holds {@link #FLUSH_DISTINCT_WORDS} words, which bounds a
 * splitter's memory on an endless input. Counting here and merging there (a combiner) sends a counter
 * one table per splitter instead of one item per word.
 *
 * <p>Its checkpointed state is what it has not sent yet: the tables and the lines split; with incremental
 * checkpoints, most of them hold only the words counted since the one before.
 */
class Splitter extends MultiOutputNode<TextChunk, Counts> implements IncrementalCheckpointed {
    static final int FLUSH_DISTINCT_WORDS = 1 << 17;

    private final WordSplitter words = new WordSplitter();
    private WordTable[] tables;
    private long lines;
    private boolean trackingChanges;

    /** The counter of {@code word} among {@code counters}. */
    static int owner(String word, int counters) {
        return Math.floorMod(word.hashCode(), counters);
    }

    @Override
    protected Counts svc(TextChunk chunk) {
        if (tables == null) {
            tables = WordSplitter.newTables(outputChannels());
            if (trackingChanges) {
                trackChanges();
            }
        }
        lines += chunk.lines();
        words.count(chunk.utf8(), tables);
        for (int c = 0; c < tables.length; c++) {
            if (tables[c].size() >= FLUSH_DISTINCT_WORDS) {
                sendOutTo(new Counts(tables[c].drain(), 0), c);
            }
        }
        return goOn();
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(lines);
        out.writeInt(tables == null ? 0 : tables.length);
        if (tables != null) {
            for (WordTable table : tables) {
                table.writeTo(out);
                table.clearChanges();
            }
        }
    }

    @Override
    public void trackChanges() {
        trackingChanges = true;
        if (tables != null) {
            for (WordTable table : tables) {
                table.trackChanges();
            }
        }
    }

    @Override
    public void snapshotChanges(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(lines);
        out.writeInt(tables == null ? 0 : tables.length);
        if (tables != null) {
            for (WordTable table : tables) {
                table.writeChangesTo(out);
            }
        }
    }

    @Override
    public void restoreChanges(DataInput in) throws IOException {
        lines = in.readLong();
        int counters = in.readInt();
        if (counters == 0) {
            tables = null;
            return;
        }
        if (tables == null) {
            // Made after the whole state, with their changes noted from the start: every word is in the set.
            tables = WordSplitter.newTables(counters);
        } else if (tables.length != counters) {
            throw new IOException(
                    "a change set of " + counters + " tables for a splitter of " + tables.length + " tables");
        }
        for (int c = 0; c < counters; c++) {
            tables[c] = tables[c].withChangesFrom(in);
        }
    }

    @Override
    public void restore(DataInput in) throws IOException {
        lines = in.readLong();
        int counters = in.readInt();
        if (counters == 0) {
            tables = null; // made at the first chunk, as in a run that never failed
            return;
        }
        tables = new WordTable[counters];
        for (int c = 0; c < counters; c++) {
            tables[c] = WordTable.readFrom(in);
        }
    }

    @Override
    protected void eosNotify(int channel) {
        int counters = outputChannels();
        for (int c = 0; c < counters; c++) {
            long linesHere = c == 0 ? lines : 0;
            sendOutTo(tables == null ? Counts.empty(linesHere) : new Counts(tables[c].drain(), linesHere), c);
        }
    }

    /**
     * The tokenizer: decodes a chunk into a reused {@code char[]} (ASCII byte by byte, anything else
     * through the JDK's UTF-8 decoder) and counts each word in {@code tables[owner]}, with no {@code
     * String} made for a word already counted.
     *
     * <p>Threading: not thread-safe; one per thread.
     */
    static final class WordSplitter {
        private char[] text = new char[LineChunker.CHUNK_BYTES];

        static WordTable[] newTables(int counters) {
            WordTable[] tables = new WordTable[counters];
            for (int c = 0; c < counters; c++) {
                tables[c] = new WordTable();
            }
            return tables;
        }

        void count(byte[] utf8, WordTable[] tables) {
            int n = decode(utf8);
            char[] t = text;
            int counters = tables.length;
            int i = 0;
            while (i < n) {
                while (i < n && Character.isWhitespace(t[i])) {
                    i++;
                }
                int start = i;
                while (i < n && !Character.isWhitespace(t[i])) {
                    i++;
                }
                if (i > start) {
                    int hash = WordTable.hash(t, start, i);
                    tables[Math.floorMod(hash, counters)].add(t, start, i, hash);
                }
            }
        }

        private int decode(byte[] utf8) {
            if (text.length < utf8.length) {
                text = new char[utf8.length];
            }
            char[] t = text;
            for (int i = 0; i < utf8.length; i++) {
                byte b = utf8[i];
                if (b < 0) { // not ASCII: let the JDK decode it (malformed bytes become U+FFFD)
                    String decoded = new String(utf8, StandardCharsets.UTF_8);
                    if (text.length < decoded.length()) {
                        text = new char[decoded.length()];
                    }
                    decoded.getChars(0, decoded.length(), text, 0);
                    return decoded.length();
                }
                t[i] = (char) b;
            }
            return utf8.length;
        }
    }
}
