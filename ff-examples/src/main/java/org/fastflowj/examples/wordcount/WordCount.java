package org.fastflowj.examples.wordcount;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * The WordCount of Fig. 11 of the 2022 paper: K source-splitter replicas shuffle words by key to four
 * counters, which hand their tables to one sink. The sources send chunks of lines; each splitter counts
 * its words in one table per counter and sends each counter its table when its input ends.
 *
 * <pre>
 *   G1: Sc1 ─▶ Sp1 ──┬──▶ C0 ──┐
 *   ...          ╲ ╱ ├──▶ C1 ──┤
 *                 ╳  ├──▶ C2 ──┼──▶ Sk  :GS
 *   Gk: Sck ─▶ Spk ──┴──▶ C3 ──┘
 *                    └─ G0 ─┘
 * </pre>
 *
 * In the paper the counters and the sink share group G0; here a group is made of children of one block,
 * so the counters (R-Workers of the all-to-all) are G0 and the sink (the next pipeline stage) is GS, a
 * group of its own on the same machine. Splitters and counters send their tables once, at the end, so
 * what crosses the network between groups is the input's chunks and 4 × (K + 1) tables.
 */
public final class WordCount {
    public static final int COUNTERS = 4;

    /**
     * The items a channel holds when the command runs it. A chunk is up to 64 KiB, so with the default
     * capacity a source reads far ahead of its splitter, and a checkpoint's barrier queues behind all it
     * read; a few dozen chunks are enough to keep a splitter busy and keep that queue short.
     */
    public static final int CHANNEL_CAPACITY = 32;

    private WordCount() {}

    /** The tree for {@code sources} replicas reading {@code file} (or {@code socket} when file is null). */
    public static Pipeline build(
            int sources, Path file, InetSocketAddress socket, double rate, Path output, PrintStream out) {
        return build(sources, file, socket, rate, new CountSink(output, out));
    }

    /** As above, ending in {@code sink}. */
    static Pipeline build(int sources, Path file, InetSocketAddress socket, double rate, CountSink sink) {
        return build(sources, file, socket, rate, sink, Splitter::new, Counter::new);
    }

    /** As above, with the splitters and the counters {@code splitters} and {@code counters} make. */
    static Pipeline build(
            int sources,
            Path file,
            InetSocketAddress socket,
            double rate,
            CountSink sink,
            Supplier<? extends Splitter> splitters,
            Supplier<? extends Counter> counters) {
        List<Pipeline> left = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
            left.add(new Pipeline(new LineSource(file, socket, i, sources, rate), splitters.get()));
        }
        List<Node<Counts, Counts>> right = new ArrayList<>();
        for (int j = 0; j < COUNTERS; j++) {
            right.add(counters.get());
        }
        AllToAll shuffle = new AllToAll().firstSet(left).secondSet(right);
        Pipeline pipe = new Pipeline(shuffle, sink);
        for (int i = 0; i < sources; i++) {
            shuffle.createGroup("G" + (i + 1)).include(left.get(i));
        }
        var g0 = shuffle.createGroup("G0");
        right.forEach(g0::include);
        sink.createGroup("GS");
        return pipe;
    }
}
