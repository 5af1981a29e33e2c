package org.fastflowj.core.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What {@link LoopbackHttpServer} needs of a request: its method, the path of its target, its one
 * {@code Host} header (null if none or several) and whether a body follows the head.
 *
 * <p>Threading: {@link #read} on the thread serving the connection.
 */
record RequestHead(String method, String path, String host, boolean announcesBody) {
    /** The request line and headers, read within {@code timeoutMs}; null if the client closed first. */
    static RequestHead read(Socket client, int timeoutMs, int maxBytes) throws IOException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        InputStream in = client.getInputStream();
        byte[] buffer = new byte[maxBytes];
        int length = 0;
        while (true) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (leftMs <= 0) {
                throw new SocketTimeoutException("request head");
            }
            client.setSoTimeout((int) leftMs);
            int read = in.read(buffer, length, buffer.length - length);
            if (read < 0) {
                return null;
            }
            int end = headEnd(buffer, length, length + read);
            length += read;
            if (end >= 0) {
                return parse(new String(buffer, 0, end, StandardCharsets.ISO_8859_1));
            }
            if (length == buffer.length) {
                throw new TooLarge();
            }
        }
    }

    /** Where the blank line that ends the head starts, searching from a little before {@code from}; or -1. */
    private static int headEnd(byte[] buffer, int from, int to) {
        for (int i = Math.max(0, from - 3); i < to; i++) {
            if (buffer[i] == '\n'
                    && ((i + 1 < to && buffer[i + 1] == '\n')
                            || (i + 2 < to && buffer[i + 1] == '\r' && buffer[i + 2] == '\n'))) {
                return i;
            }
        }
        return -1;
    }

    private static RequestHead parse(String head) throws Malformed {
        String[] lines = head.split("\r?\n");
        String[] request = lines[0].split(" ");
        if (request.length != 3 || !request[2].startsWith("HTTP/1.")) {
            throw new Malformed("not an HTTP/1.x request line: " + lines[0]);
        }
        String host = null;
        int hostHeaders = 0;
        boolean announcesBody = false;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new Malformed("not a header: " + lines[i]);
            }
            String name = lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).strip();
            if (name.equals("host")) {
                host = value;
                hostHeaders++;
            } else if (name.equals("transfer-encoding") || (name.equals("content-length") && !value.equals("0"))) {
                announcesBody = true;
            }
        }
        return new RequestHead(request[0], path(request[1]), hostHeaders == 1 ? host : null, announcesBody);
    }

    /** The path of a request target, in origin form ({@code /metrics?x}) or absolute form ({@code http://h/metrics}). */
    private static String path(String target) {
        String path = target;
        if (path.regionMatches(true, 0, "http://", 0, 7)) {
            int slash = path.indexOf('/', 7);
            path = slash < 0 ? "/" : path.substring(slash);
        }
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    /** The head does not fit the buffer. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("request head too large");
        }
    }

    /** Not an HTTP/1.x request. */
    static final class Malformed extends IOException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }
}
