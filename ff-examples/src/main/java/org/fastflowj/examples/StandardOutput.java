package org.fastflowj.examples;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * The applications' standard output as {@code System.out} is (a line-flushed {@link PrintStream} in the
 * console's charset), except that it keeps the first write error: a {@code PrintStream} swallows the
 * {@code IOException} of a full disk or of a pipe whose reader left ({@code | head -3}), so a run would
 * end 0 with its results lost. {@link Main} checks {@link #failure} once the application returns and
 * exits 2, as {@code grep} does.
 *
 * <p>Threading: written by any node thread through the {@code PrintStream}'s lock; the first error is
 * published through a volatile field.
 */
final class StandardOutput extends FilterOutputStream {
    private volatile IOException first;
    private final PrintStream printer;

    private StandardOutput() {
        super(new FileOutputStream(FileDescriptor.out));
        // the same buffer and flushing as the JDK's System.out
        this.printer = new PrintStream(new BufferedOutputStream(this, 128), true, charset());
    }

    /** A new one on file descriptor 1. */
    static StandardOutput open() {
        return new StandardOutput();
    }

    /** What the applications print to. */
    PrintStream printer() {
        return printer;
    }

    /**
     * After flushing what is buffered: {@code "cannot write to standard output: No space left on device"}
     * once a write has failed, else null.
     */
    String failure() {
        printer.flush();
        IOException cause = first;
        if (cause == null && !printer.checkError()) {
            return null;
        }
        return "cannot write to standard output: " + (cause == null ? "write error" : cause.getMessage());
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw keep(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw keep(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw keep(e);
        }
    }

    private IOException keep(IOException e) {
        if (first == null) {
            first = e;
        }
        return e;
    }

    /** System.out's charset: {@code stdout.encoding} (JDK 19 on), else {@code sun.stdout.encoding}, else the default. */
    private static Charset charset() {
        String name = System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException unknown) {
            return Charset.defaultCharset();
        }
    }
}
