package org.fastflowj.examples.wordcount;

import java.io.BufferedWriter;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.examples.InputException;

/**
 * Sk: merges the counters' tables; at the end prints the totals and the throughput, and writes
 * {@code word<TAB>count} lines sorted by word (String order, i.e. by UTF-16 code unit) when asked.
 *
 * <p>Its checkpointed state is the merged counts, the lines and the time counted so far. The file comes
 * from that state alone, written under a temporary name and renamed: a restart that runs {@code svcEnd}
 * again, from the state it saved after its last item, replaces it by the same bytes, and a reader never
 * sees half of it.
 */
final class CountSink extends Node<Counts, Void> implements Checkpointed {
    private final Path output;
    private final PrintStream out;
    private final Map<String, Long> total = new HashMap<>();
    private long lines;
    private long startNs;
    /** Checkpoint 0 is taken before {@code svcInit}, when there is no time counted yet. */
    private boolean started;
    /** The counting time of the attempts before this one, up to the checkpoint it restarted from. */
    private long earlierNs;

    CountSink(Path output, PrintStream out) {
        this.output = output;
        this.out = out;
    }

    @Override
    protected void svcInit() {
        startNs = System.nanoTime();
        started = true;
    }

    @Override
    protected Void svc(Counts counts) {
        counts.addTo(total);
        lines += counts.lines();
        return goOn();
    }

    /** The lines counted; complete once the run ended. */
    long lines() {
        return lines;
    }

    /** The merged counts; complete once the run ended. */
    Map<String, Long> total() {
        return total;
    }

    @Override
    protected void svcEnd() {
        double seconds = (earlierNs + System.nanoTime() - startNs) / 1e9;
        long words = total.values().stream().mapToLong(Long::longValue).sum();
        if (output != null) {
            write();
        }
        out.printf(
                "wordcount: %d lines, %d words, %d distinct in %.3f s: %.0f lines/s%n",
                lines, words, total.size(), seconds, lines / seconds);
        out.flush();
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(lines);
        out.writeLong(started ? earlierNs + System.nanoTime() - startNs : earlierNs);
        WordState.writeWords(total, out);
    }

    @Override
    public void restore(DataInput in) throws IOException {
        lines = in.readLong();
        earlierNs = in.readLong();
        startNs = System.nanoTime();
        total.clear();
        WordState.readWords(in, total);
    }

    private void write() {
        // a device or a pipe (/dev/stdout) cannot be replaced by a rename: written in place
        boolean replace = Files.isRegularFile(output) || !Files.exists(output);
        Path written = replace ? output.resolveSibling(output.getFileName() + ".writing") : output;
        try {
            try (BufferedWriter w = Files.newBufferedWriter(written, StandardCharsets.UTF_8)) {
                for (Map.Entry<String, Long> e : new TreeMap<>(total).entrySet()) {
                    w.write(e.getKey());
                    w.write('\t');
                    w.write(Long.toString(e.getValue()));
                    w.write('\n');
                }
            }
            if (replace) {
                Files.move(written, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new InputException(output + ": cannot write: " + e.getMessage(), e);
        }
    }
}
