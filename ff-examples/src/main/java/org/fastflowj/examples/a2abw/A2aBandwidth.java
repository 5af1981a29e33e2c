package org.fastflowj.examples.a2abw;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Pipeline;

/**
 * The all-to-all bandwidth test of Fig. 9 (bottom right) of the 2022 paper: L-Workers read contiguous
 * parts of a file and send the chunks to the R-Workers owning them, every worker in a group of its own.
 *
 * <pre>
 *   L1: PartReader ──┬──▶ Receiver :R1 ──┐
 *            ╲ ╱     │                   ├──▶ BandwidthSink :S
 *   L2: PartReader ──┴──▶ Receiver :R2 ──┘
 * </pre>
 */
public final class A2aBandwidth {
    private A2aBandwidth() {}

    public static Pipeline build(Path file, int lWorkers, int rWorkers, int chunkBytes, PrintStream out) {
        List<PartReader> readers = new ArrayList<>();
        for (int i = 0; i < lWorkers; i++) {
            readers.add(new PartReader(file, lWorkers, chunkBytes));
        }
        List<Receiver> receivers = new ArrayList<>();
        for (int j = 0; j < rWorkers; j++) {
            receivers.add(new Receiver());
        }
        AllToAll a2a = new AllToAll().firstSet(readers).secondSet(receivers);
        BandwidthSink sink = new BandwidthSink(out);
        Pipeline pipe = new Pipeline(a2a, sink);
        for (int i = 0; i < lWorkers; i++) {
            a2a.createGroup("L" + (i + 1)).include(readers.get(i));
        }
        for (int j = 0; j < rWorkers; j++) {
            a2a.createGroup("R" + (j + 1)).include(receivers.get(j));
        }
        sink.createGroup("S");
        return pipe;
    }
}
