package org.fastflowj.examples.wordcount;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.fastflowj.core.Node;
import org.fastflowj.examples.InputException;

/**
 * Sk: merges the counters' tables; at the end prints the totals and the throughput, and writes
 * {@code word<TAB>count} lines sorted by word (String order, i.e. by UTF-16 code unit) when asked.
 */
final class CountSink extends Node<Counts, Void> {
    private final Path output;
    private final PrintStream out;
    private final Map<String, Long> total = new HashMap<>();
    private long lines;
    private long startNs;

    CountSink(Path output, PrintStream out) {
        this.output = output;
        this.out = out;
    }

    @Override
    protected void svcInit() {
        startNs = System.nanoTime();
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
        double seconds = (System.nanoTime() - startNs) / 1e9;
        long words = total.values().stream().mapToLong(Long::longValue).sum();
        if (output != null) {
            write();
        }
        out.printf(
                "wordcount: %d lines, %d words, %d distinct in %.3f s: %.0f lines/s%n",
                lines, words, total.size(), seconds, lines / seconds);
        out.flush();
    }

    private void write() {
        try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, Long> e : new TreeMap<>(total).entrySet()) {
                w.write(e.getKey());
                w.write('\t');
                w.write(Long.toString(e.getValue()));
                w.write('\n');
            }
        } catch (IOException e) {
            throw new InputException(output + ": cannot write: " + e.getMessage(), e);
        }
    }
}
