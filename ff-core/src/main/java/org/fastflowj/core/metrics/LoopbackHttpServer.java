package org.fastflowj.core.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A read-only HTTP/1.1 server on the loopback address for the live page and {@code /metrics}: each
 * route an exact path answered with bytes built when asked, {@code GET} and {@code HEAD} only, one
 * request per connection.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: its dispatcher reads a request on its own thread
 * unless given an executor, and even then it bounds the time a client may take to send its request only
 * through JVM-wide system properties ({@code sun.net.httpserver.maxReqTime}) read once when the class is
 * loaded, which a library must not set for the whole application. Here each connection has its own
 * deadline, so one client that stalls half-way through its request holds one thread for at most
 * {@link #HEAD_TIMEOUT_MS}, and the others are answered meanwhile.
 *
 * <p>Refused, before anything is built: a {@code Host} header other than {@code 127.0.0.1}, {@code localhost}
 * or {@code [::1]} with this server's port (421: a page of another site that a DNS rebinding points at
 * 127.0.0.1 sends its own name, so it cannot read the answers), a method other than GET and HEAD (405),
 * a request head larger than {@link #MAX_HEAD_BYTES} (431) or slower than {@link #HEAD_TIMEOUT_MS} (408),
 * and a connection while every thread is busy and the queue full (503).
 *
 * <pre>
 *   ff-ui-accept ──accept──▶ queue (16) ──▶ ff-ui-http-1..4: read the head (deadline) ─▶ check ─▶ answer, close
 * </pre>
 *
 * <p>Threading: routes are added before {@link #start}; one acceptor thread, a pool of
 * {@link #THREADS} daemon threads that read and answer concurrently, and the routes' suppliers called one
 * at a time (they read a run's snapshots and need not be thread-safe). {@link #close} from any thread.
 */
public final class LoopbackHttpServer implements AutoCloseable {
    /** How long a client has to send its whole request line and headers. */
    public static final int HEAD_TIMEOUT_MS = 3_000;

    static final int MAX_HEAD_BYTES = 16 * 1024;
    static final int THREADS = 4;
    private static final int QUEUED_CONNECTIONS = 16;
    private static final int MAX_DRAINED_BYTES = 64 * 1024;
    private static final long CLOSE_WAIT_MS = 2_000;

    private record Route(String contentType, Supplier<byte[]> body) {}

    private final ServerSocket listener;
    private final int port;
    private final Set<String> hosts;
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object building = new Object();
    private final ThreadPoolExecutor pool;
    private volatile boolean closed;
    private volatile Thread acceptor;

    private LoopbackHttpServer(ServerSocket listener) {
        this.listener = listener;
        this.port = listener.getLocalPort();
        this.hosts = Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(
                THREADS,
                THREADS,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUED_CONNECTIONS),
                r -> daemon(r, "ff-ui-http-" + port + "-" + threads.incrementAndGet()));
        pool.allowCoreThreadTimeOut(true); // an idle page costs no thread
    }

    /**
     * Binds {@code port} (0: a free one) on the loopback address; nothing is answered before {@link #start}.
     *
     * @throws IOException if the port cannot be bound
     */
    public static LoopbackHttpServer bind(int port) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            // The answered connections' TIME_WAIT must not keep a page from binding its port again.
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        return new LoopbackHttpServer(listener);
    }

    /** Answers {@code path} exactly (a query string aside) with {@code body}'s bytes; before {@link #start}. */
    public LoopbackHttpServer route(String path, String contentType, Supplier<byte[]> body) {
        routes.put(path, new Route(contentType, body));
        return this;
    }

    /** Starts accepting connections. */
    public void start() {
        Thread thread = daemon(this::acceptAll, "ff-ui-accept-" + port);
        acceptor = thread;
        thread.start();
    }

    public int port() {
        return port;
    }

    /** Stops accepting and drops every open connection; the port is free when this returns. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closed all the same
        }
        pool.shutdownNow();
        open.forEach(LoopbackHttpServer::closeQuietly);
        // A socket closed while another thread waits in accept is released only once that thread
        // returns: wait for it, so that the port is free when close returns.
        Thread thread = acceptor;
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(CLOSE_WAIT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void acceptAll() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                pause(); // out of file descriptors, say: try again soon, without spinning
                continue;
            }
            open.add(client);
            try {
                pool.execute(() -> serve(client));
            } catch (RejectedExecutionException busy) {
                // A fresh connection's send buffer is empty: this short answer does not block the acceptor.
                try (client) {
                    respond(client.getOutputStream(), 503, "text/plain", text("busy: try again"), false);
                } catch (IOException gone) {
                    // nothing to tell
                } finally {
                    open.remove(client);
                }
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            OutputStream out = client.getOutputStream();
            RequestHead head;
            try {
                head = RequestHead.read(client, HEAD_TIMEOUT_MS, MAX_HEAD_BYTES);
            } catch (SocketTimeoutException slow) {
                respond(out, 408, "text/plain", text("the request took longer than " + HEAD_TIMEOUT_MS + " ms"), false);
                return;
            } catch (RequestHead.TooLarge large) {
                respond(out, 431, "text/plain", text("the request head exceeds " + MAX_HEAD_BYTES + " bytes"), false);
                return;
            } catch (RequestHead.Malformed bad) {
                respond(out, 400, "text/plain", text(bad.getMessage()), false);
                return;
            }
            if (head == null) {
                return; // the client closed before a whole request
            }
            answer(head, out);
            if (head.announcesBody()) {
                drain(client); // so that closing with unread bytes does not reset the answer away
            }
        } catch (IOException clientGone) {
            // nothing to answer
        } finally {
            open.remove(client);
        }
    }

    private void answer(RequestHead head, OutputStream out) throws IOException {
        boolean bodyless = head.method().equals("HEAD");
        if (head.host() == null) {
            respond(out, 400, "text/plain", text("the request needs one Host header"), bodyless);
        } else if (!hosts.contains(head.host().toLowerCase(Locale.ROOT))) {
            respond(
                    out,
                    421,
                    "text/plain",
                    text("this server answers Host 127.0.0.1:" + port + ", localhost:" + port + " or [::1]:" + port
                            + " only, not " + head.host()),
                    bodyless);
        } else if (!head.method().equals("GET") && !bodyless) {
            respond(out, 405, "text/plain", text("read-only: GET and HEAD only"), false);
        } else {
            Route route = routes.get(head.path());
            if (route == null) {
                respond(out, 404, "text/plain", text("no such page: " + head.path()), bodyless);
                return;
            }
            byte[] body;
            synchronized (building) {
                body = route.body().get();
            }
            respond(out, 200, route.contentType(), body, bodyless);
        }
    }

    private static void respond(OutputStream out, int status, String contentType, byte[] body, boolean bodyless)
            throws IOException {
        StringBuilder head = new StringBuilder(256)
                .append("HTTP/1.1 ")
                .append(status)
                .append(' ')
                .append(reason(status))
                .append("\r\nContent-Type: ")
                .append(contentType)
                .append("\r\nContent-Length: ")
                .append(body.length)
                .append("\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n");
        if (status == 405) {
            head.append("Allow: GET, HEAD\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!bodyless) {
            out.write(body);
        }
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 421 -> "Misdirected Request";
            case 431 -> "Request Header Fields Too Large";
            default -> "Service Unavailable";
        };
    }

    /** Reads what the client still sends, briefly, after the answer is out. */
    private static void drain(Socket client) throws IOException {
        client.shutdownOutput();
        client.setSoTimeout(500);
        InputStream in = client.getInputStream();
        byte[] discard = new byte[8192];
        int total = 0;
        try {
            for (int n; total < MAX_DRAINED_BYTES && (n = in.read(discard)) >= 0; ) {
                total += n;
            }
        } catch (SocketTimeoutException enough) {
            // the answer had time to leave
        }
    }

    private static byte[] text(String message) {
        return (message + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closed all the same
        }
    }
}
