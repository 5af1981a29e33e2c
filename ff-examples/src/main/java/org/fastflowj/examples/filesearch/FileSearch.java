package org.fastflowj.examples.filesearch;

import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Pipeline;

/** Builds the two versions of the file search (the paper's Fig. 2); run them with {@code runAndWaitEnd()}. */
public final class FileSearch {
    /** Number of Workers in the all-to-all version, as in the paper. */
    public static final int A2A_WORKERS = 3;

    private FileSearch() {}

    /**
     * Version 1: {@code Reader(dirs) -> Worker -> Writer}, one thread each; as groups, one stage each
     * (G1, G2, G3).
     */
    public static Pipeline pipeline(List<Path> dirs, String word, OutputStream out) {
        Reader reader = new Reader(dirs);
        Worker worker = new Worker(word);
        Writer writer = new Writer(out);
        Pipeline pipe = new Pipeline(reader, worker, writer);
        reader.createGroup("G1");
        worker.createGroup("G2");
        writer.createGroup("G3");
        return pipe;
    }

    /**
     * Version 2: two Readers (first and second half of {@code dirs}; with one directory the second Reader
     * has none and just ends) feed three Workers through an all-to-all, whose outputs meet in the Writer;
     * as groups, the first Reader with two Workers (G1), the second with one (G2), the Writer alone (G3).
     */
    public static Pipeline allToAll(List<Path> dirs, String word, OutputStream out) {
        int half = (dirs.size() + 1) / 2;
        Reader first = new Reader(dirs.subList(0, half));
        Reader second = new Reader(dirs.subList(half, dirs.size()));
        List<Worker> workers = List.of(new Worker(word), new Worker(word), new Worker(word));
        AllToAll a2a = new AllToAll().firstSet(first, second).secondSet(workers);
        Writer writer = new Writer(out);
        Pipeline pipe = new Pipeline(a2a, writer);
        // a horizontal cut: each Reader with some Workers (G1, G2), the Writer alone (G3)
        a2a.createGroup("G1").include(first).include(workers.get(0)).include(workers.get(1));
        a2a.createGroup("G2").include(second).include(workers.get(2));
        writer.createGroup("G3");
        return pipe;
    }

    /** Lets the file search's items cross groups; call once before the run. */
    public static void registerWireFormats() {
        WireFormats.register();
    }

    /**
     * The charset of the platform's locale, in which the JVM decoded the command-line arguments and file
     * names: encoding with it gives back the bytes grep would see and print.
     */
    static Charset nativeCharset() {
        String name = System.getProperty("native.encoding");
        if (name != null) {
            try {
                return Charset.forName(name);
            } catch (IllegalArgumentException unsupported) {
                // fall through to the JVM default
            }
        }
        return Charset.defaultCharset();
    }
}
