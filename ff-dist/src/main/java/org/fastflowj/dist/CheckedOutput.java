package org.fastflowj.dist;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * A command-line program's output (its standard output or error) that keeps the first write error with
 * its cause. A {@code PrintStream} or {@code PrintWriter} swallows the {@code IOException} of a full disk or
 * of a pipe whose reader left ({@code | head -3}) and keeps only a flag, so a program would end 0 with its
 * output lost; printing through one of these, it can stop and exit 2 naming the output and the cause, as
 * {@code grep} does. The launcher prints through them, and so do the examples.
 *
 * <pre>
 *   PrintStream out = CheckedOutput.standardOutput().printStream();
 *   ... print the results to out ...
 *   String failure = CheckedOutput.failureOf(out); // "cannot write to standard output: Broken pipe"
 * </pre>
 *
 * <p>Threading: written by any thread through its printer's lock; the first error is published through a
 * volatile field.
 */
public final class CheckedOutput extends FilterOutputStream {
    private final String name;
    private volatile IOException first;

    private CheckedOutput(OutputStream raw, String name) {
        super(raw);
        this.name = name;
    }

    /** {@code raw} (the process's file descriptor, unbuffered) as the output called {@code name}. */
    public static CheckedOutput of(OutputStream raw, String name) {
        return new CheckedOutput(raw, name);
    }

    /** File descriptor 1, called "standard output". */
    public static CheckedOutput standardOutput() {
        return of(new FileOutputStream(FileDescriptor.out), "standard output");
    }

    /** File descriptor 2, called "standard error". */
    public static CheckedOutput standardError() {
        return of(new FileOutputStream(FileDescriptor.err), "standard error");
    }

    /** A new {@code PrintStream} on this output as {@code System.out} is: line-flushed, in the console's charset. */
    public PrintStream printStream() {
        return new CheckedStream(this);
    }

    /** A new {@code PrintWriter} on this output that flushes at every {@code println}. */
    public PrintWriter printWriter() {
        return new CheckedWriter(this);
    }

    /**
     * After flushing {@code printer}: {@code "cannot write to standard output: No space left on device"} once
     * a write to it failed, else null. A printer not made here is called "the output".
     */
    public static String failureOf(PrintStream printer) {
        return failure(printer.checkError(), printer instanceof CheckedStream checked ? checked.output : null);
    }

    /** As {@link #failureOf(PrintStream)}, for a {@code PrintWriter}. */
    public static String failureOf(PrintWriter printer) {
        return failure(printer.checkError(), printer instanceof CheckedWriter checked ? checked.output : null);
    }

    private static String failure(boolean flagged, CheckedOutput output) {
        IOException cause = output == null ? null : output.first;
        if (!flagged && cause == null) {
            return null;
        }
        return "cannot write to " + (output == null ? "the output" : output.name) + ": "
                + (cause == null ? "write error" : cause.getMessage());
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
    private static Charset consoleCharset() {
        String name = System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException unknown) {
            return Charset.defaultCharset();
        }
    }

    private static final class CheckedStream extends PrintStream {
        final CheckedOutput output;

        CheckedStream(CheckedOutput output) {
            super(new BufferedOutputStream(output, 128), true, consoleCharset()); // System.out's buffer and flushing
            this.output = output;
        }
    }

    private static final class CheckedWriter extends PrintWriter {
        final CheckedOutput output;

        CheckedWriter(CheckedOutput output) {
            super(output, true);
            this.output = output;
        }
    }
}
