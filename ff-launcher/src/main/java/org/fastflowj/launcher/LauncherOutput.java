package org.fastflowj.launcher;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * One of the launcher's own outputs (standard output, standard error) as a {@link PrintWriter} that keeps
 * the first write error with its cause. A {@code PrintWriter} swallows the {@code IOException} of a full
 * disk or of a pipe whose reader is gone ({@code | head -3}) and only sets a flag; this one also says
 * what failed, so that the run can stop and exit 2 naming the output, as {@code grep} does.
 *
 * <p>Threading: written under {@link StatusBoard}'s monitor; the first error is published through a
 * volatile field.
 */
final class LauncherOutput extends PrintWriter {
    private final String name;
    private final Recorder recorder;

    private LauncherOutput(Recorder recorder, String name) {
        super(recorder, true);
        this.recorder = recorder;
        this.name = name;
    }

    /** {@code raw} (the process's file descriptor, unbuffered) as the output called {@code name}. */
    static LauncherOutput of(OutputStream raw, String name) {
        return new LauncherOutput(new Recorder(raw), name);
    }

    /**
     * {@code "cannot write to standard output: Broken pipe"} once a write or flush of {@code output} has
     * failed, else null; any other writer is named "the launcher's output".
     */
    static String failureOf(PrintWriter output) {
        if (!output.checkError()) {
            return null;
        }
        if (output instanceof LauncherOutput named) {
            IOException cause = named.recorder.first;
            return "cannot write to " + named.name + ": " + (cause == null ? "write error" : cause.getMessage());
        }
        return "cannot write to the launcher's output";
    }

    /** Passes everything on, keeping the first exception it throws. */
    private static final class Recorder extends FilterOutputStream {
        private volatile IOException first;

        Recorder(OutputStream out) {
            super(out);
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
    }
}
