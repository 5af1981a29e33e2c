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

    /** Version 1: {@code Reader(dirs) -> Worker -> Writer}, one thread each. */
    public static Pipeline pipeline(List<Path> dirs, String word, OutputStream out) {
        return new Pipeline(new Reader(dirs), new Worker(word), new Writer(out));
    }

    /**
     * Version 2: two Readers (first and second half of {@code dirs}; with one directory the second Reader
     * has none and just ends) feed three Workers through an all-to-all, whose outputs meet in the Writer.
     */
    public static Pipeline allToAll(List<Path> dirs, String word, OutputStream out) {
        int half = (dirs.size() + 1) / 2;
        AllToAll a2a = new AllToAll()
                .firstSet(new Reader(dirs.subList(0, half)), new Reader(dirs.subList(half, dirs.size())))
                .secondSet(new Worker(word), new Worker(word), new Worker(word));
        return new Pipeline(a2a, new Writer(out));
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
