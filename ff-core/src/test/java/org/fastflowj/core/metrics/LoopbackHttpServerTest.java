package org.fastflowj.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real sockets on the loopback address against a started server, each request written byte for byte. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoopbackHttpServerTest {
    private final AtomicInteger built = new AtomicInteger();
    private final List<Socket> stalled = new ArrayList<>();
    private LoopbackHttpServer server;
    private int port;

    @BeforeEach
    void start() throws IOException {
        server = LoopbackHttpServer.bind(0)
                .route("/metrics", "text/plain; version=0.0.4", () -> {
                    built.incrementAndGet();
                    return "fastflowj_up 1\n".getBytes(StandardCharsets.UTF_8);
                })
                .route("/", "text/html; charset=utf-8", () -> "<html>live</html>".getBytes(StandardCharsets.UTF_8));
        server.start();
        port = server.port();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : stalled) {
            s.close();
        }
        server.close();
    }

    @Test
    void shouldAnswerOthersPromptlyWhileAClientStallsHalfWayThroughItsRequest() throws IOException {
        stall("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: te");

        long startNs = System.nanoTime();
        String metrics = exchange("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n");
        String page = exchange("GET / HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n");
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertThat(metrics).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\nfastflowj_up 1\n");
        assertThat(page)
                .startsWith("HTTP/1.1 200 ")
                .contains("Content-Type: text/html")
                .endsWith("<html>live</html>");
        assertThat(tookMs)
                .as("both answers while the stalled request is still open")
                .isLessThan(2_000);
    }

    @Test
    void shouldDropAStalledRequestAfterTheHeadTimeoutSoThatEveryThreadStalledStillFrees() throws IOException {
        for (int i = 0; i < LoopbackHttpServer.THREADS; i++) {
            stall("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
        }
        long startNs = System.nanoTime();
        String metrics = exchange("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n");
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertThat(metrics).startsWith("HTTP/1.1 200 ");
        assertThat(tookMs)
                .as("queued behind %d stalled requests, answered once they time out", LoopbackHttpServer.THREADS)
                .isLessThan(LoopbackHttpServer.HEAD_TIMEOUT_MS + 2_000L);
        assertThat(read(stalled.get(0))).startsWith("HTTP/1.1 408 ");
    }

    @Test
    void shouldRefuseAForeignHostAndServeTheLoopbackNamesWithThisPort() throws IOException {
        String rebound = exchange("GET /metrics HTTP/1.1\r\nHost: evil.example:" + port + "\r\n\r\n");
        String otherPort = exchange("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + (port == 1 ? 2 : 1) + "\r\n\r\n");
        String noPort = exchange("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
        String noHost = exchange("GET /metrics HTTP/1.0\r\n\r\n");

        assertThat(rebound).startsWith("HTTP/1.1 421 ").contains("evil.example").doesNotContain("fastflowj_up");
        assertThat(otherPort).startsWith("HTTP/1.1 421 ");
        assertThat(noPort).startsWith("HTTP/1.1 421 ");
        assertThat(noHost).startsWith("HTTP/1.1 400 ");
        assertThat(built).as("nothing built for a refused request").hasValue(0);
        for (String host : List.of("localhost", "LocalHost", "127.0.0.1", "[::1]")) {
            assertThat(exchange("GET /metrics?x=1 HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n"))
                    .as("Host %s", host)
                    .startsWith("HTTP/1.1 200 ")
                    .endsWith("fastflowj_up 1\n");
        }
    }

    @Test
    void shouldAnswerOnlyGetAndHead() throws IOException {
        String host = "Host: 127.0.0.1:" + port + "\r\n";
        String post = exchange("POST /metrics HTTP/1.1\r\n" + host + "Content-Length: 5\r\n\r\nhello");
        String delete = exchange("DELETE / HTTP/1.1\r\n" + host + "\r\n");
        String head = exchange("HEAD /metrics HTTP/1.1\r\n" + host + "\r\n");
        String unknown = exchange("GET /metrics/more HTTP/1.1\r\n" + host + "\r\n");

        assertThat(post).startsWith("HTTP/1.1 405 ").contains("Allow: GET, HEAD\r\n");
        assertThat(delete).startsWith("HTTP/1.1 405 ");
        assertThat(head)
                .startsWith("HTTP/1.1 200 ")
                .contains("Content-Length: 15\r\n")
                .endsWith("\r\n\r\n");
        assertThat(unknown).startsWith("HTTP/1.1 404 ");
    }

    @Test
    void shouldRefuseAHeadTooLargeAndFreeThePortOnClose() throws IOException {
        String huge = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nX: "
                + "a".repeat(LoopbackHttpServer.MAX_HEAD_BYTES) + "\r\n\r\n";
        assertThat(exchange(huge)).startsWith("HTTP/1.1 431 ");

        server.close();
        try (LoopbackHttpServer again = LoopbackHttpServer.bind(port)) {
            assertThat(again.port()).isEqualTo(port);
        }
    }

    /** Opens a connection, sends {@code partial} and leaves it open. */
    private void stall(String partial) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        stalled.add(socket);
        socket.getOutputStream().write(partial.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return read(socket);
        }
    }

    /** The whole answer: the server closes every connection after it. */
    private static String read(Socket socket) throws IOException {
        socket.setSoTimeout(LoopbackHttpServer.HEAD_TIMEOUT_MS + 5_000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        in.transferTo(answer);
        return answer.toString(StandardCharsets.UTF_8);
    }
}
