package org.fastflowj.examples.filesearch;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.fastflowj.core.MultiInputNode;

/**
 * Sink: collects the matches from all its input channels (one per Worker) and, once every channel has
 * ended, prints one line {@code path:lineNumber:line} per match, sorted by path (as a string, so byte
 * order for ASCII paths) and then by line number. This is {@code grep -rn} output after
 * {@code LC_ALL=C sort -t: -k1,1 -k2,2n}. Nothing else is written to the stream, which is flushed but
 * not closed.
 *
 * <p>Threading: one node thread; results live in a plain list until {@code svcEnd}.
 */
public final class Writer extends MultiInputNode<FileMatches, Void> {
    private static final Comparator<Hit> ORDER =
            Comparator.comparing(Hit::path).thenComparingLong(hit -> hit.line().number());

    private final OutputStream out;
    private final List<FileMatches> results = new ArrayList<>();

    /** A Writer printing to {@code out} (for instance {@code System.out}). */
    public Writer(OutputStream out) {
        this.out = out;
    }

    @Override
    protected void svcInit() {
        results.clear();
    }

    @Override
    protected Void svc(FileMatches matches) {
        results.add(matches);
        return goOn();
    }

    @Override
    protected void svcEnd() throws IOException {
        List<Hit> hits = new ArrayList<>();
        for (FileMatches matches : results) {
            String path = matches.file().toString();
            for (MatchedLine line : matches.lines()) {
                hits.add(new Hit(path, line));
            }
        }
        hits.sort(ORDER); // stable: a directory given twice prints its lines twice, as grep would
        Charset charset = FileSearch.nativeCharset();
        BufferedOutputStream buffer = new BufferedOutputStream(out, 1 << 16);
        for (Hit hit : hits) {
            buffer.write(hit.path().getBytes(charset));
            buffer.write(':');
            buffer.write(Long.toString(hit.line().number()).getBytes(StandardCharsets.US_ASCII));
            buffer.write(':');
            buffer.write(hit.line().bytes());
            buffer.write('\n');
        }
        buffer.flush(); // not close(): out may be System.out
    }

    private record Hit(String path, MatchedLine line) {}
}
