package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A running block shows its statistics while items flow: stats(), JMX MBeans per node and the
 * Prometheus text at /metrics, all of them gone when the run ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatchingARunTest {
    private static final long WAIT_SECONDS = 20;

    /** A source that sends one item per permit the test hands out, and ends when told. */
    static final class GatedSource extends Node<Void, Integer> {
        final Semaphore permits = new Semaphore(0);
        volatile boolean stop;
        private int next;

        @Override
        protected Integer svc(Void none) throws InterruptedException {
            if (stop) {
                return eos();
            }
            return permits.tryAcquire(10, TimeUnit.MILLISECONDS) ? Integer.valueOf(next++) : goOn();
        }
    }

    /** A sink that tells the test of every item it took (after the run counted it in). */
    static final class SignallingSink extends Node<Integer, Void> {
        final Semaphore taken = new Semaphore(0);

        @Override
        protected Void svc(Integer item) {
            taken.release(); // releases after itemsIn++ of this node: the test then sees that count
            return goOn();
        }
    }

    private final GatedSource source = new GatedSource();
    private final SignallingSink sink = new SignallingSink();
    private final Pipeline pipe = new Pipeline(source, Node.of(Integer.class, Integer.class, i -> i), sink);

    private void flow(int items) throws InterruptedException {
        source.permits.release(items);
        assertThat(sink.taken.tryAcquire(items, WAIT_SECONDS, TimeUnit.SECONDS))
                .as("%d items reached the sink", items)
                .isTrue();
    }

    private void end() {
        source.stop = true;
        assertThat(pipe.waitEnd(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shouldShowCountsGrowingInStatsDuringARun() throws InterruptedException {
        pipe.run();
        try {
            flow(40);
            long before = pipe.stats().node("ff-pipe1-stage2").orElseThrow().itemsIn();
            flow(60);
            long after = pipe.stats().node("ff-pipe1-stage2").orElseThrow().itemsIn();

            assertThat(before).isEqualTo(40);
            assertThat(after).isEqualTo(100);
            assertThat(pipe.stats().node("ff-pipe1-stage1").orElseThrow().itemsIn())
                    .isGreaterThanOrEqualTo(100);
            assertThat(pipe.uiPort()).as("no metrics server unless asked").isEqualTo(-1);
        } finally {
            end();
        }
        assertThat(pipe.stats().node("ff-pipe1-stage0").orElseThrow().itemsOut())
                .isEqualTo(100);
    }

    @Test
    void shouldServePrometheusTextWhileTheRunLivesAndStopAtItsEnd() throws Exception {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        pipe.run(RunOptions.defaults().ui(0));
        URI uri;
        try {
            int port = pipe.uiPort();
            assertThat(port).isPositive();
            uri = URI.create("http://127.0.0.1:" + port + "/metrics");
            flow(30);
            HttpResponse<String> first = get(client, uri);
            flow(70);
            HttpResponse<String> second = get(client, uri);

            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(first.body())
                    .contains("# TYPE fastflowj_node_items_in_total counter\n")
                    .contains("# HELP fastflowj_node_items_out_total ")
                    .contains("# TYPE fastflowj_node_blocked_input_seconds_total counter\n")
                    .contains("fastflowj_node_items_in_total{node=\"ff-pipe1-stage0\"} 0\n")
                    .doesNotContain("fastflowj_link_");
            assertThat(sample(first.body(), "fastflowj_node_items_in_total", "ff-pipe1-stage2"))
                    .isEqualTo(30);
            assertThat(sample(second.body(), "fastflowj_node_items_in_total", "ff-pipe1-stage2"))
                    .isEqualTo(100);
            assertThat(sample(second.body(), "fastflowj_node_items_out_total", "ff-pipe1-stage1"))
                    .isGreaterThanOrEqualTo(100);
            assertThat(get(client, URI.create("http://127.0.0.1:" + port + "/nothing"))
                            .statusCode())
                    .isEqualTo(404);
            // The server has no authentication: it listens on the loopback address only.
            Optional<InetAddress> external = NetworkInterface.networkInterfaces()
                    .flatMap(NetworkInterface::inetAddresses)
                    .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                    .findFirst();
            if (external.isPresent()) {
                try (Socket probe = new Socket()) {
                    assertThatThrownBy(() -> probe.connect(new InetSocketAddress(external.get(), port), 2_000))
                            .as("the metrics port on " + external.get())
                            .isInstanceOf(IOException.class);
                }
            }
        } finally {
            end();
        }
        assertThatThrownBy(() -> get(client, uri))
                .as("the server stopped with the run")
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void shouldRegisterNodeMBeansWhileTheRunLivesAndUnregisterThemAtItsEnd() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName query = new ObjectName("org.fastflowj:type=Node,node=ff-pipe1-stage2,*");
        pipe.run(RunOptions.defaults().jmx(true));
        try {
            Set<ObjectName> names = server.queryNames(query, null);
            assertThat(names).hasSize(1);
            ObjectName sinkBean = names.iterator().next();
            assertThat(server.queryNames(new ObjectName("org.fastflowj:type=Node,*"), null))
                    .hasSize(3);
            flow(25);
            long before = (Long) server.getAttribute(sinkBean, "ItemsIn");
            flow(25);
            long after = (Long) server.getAttribute(sinkBean, "ItemsIn");

            assertThat(before).isEqualTo(25);
            assertThat(after).isEqualTo(50);
            assertThat(server.getAttribute(sinkBean, "Name")).isEqualTo("ff-pipe1-stage2");
            assertThat((Long) server.getAttribute(sinkBean, "BlockedInputNanos"))
                    .isNotNegative();
            assertThat(server.getAttribute(sinkBean, "Cpu")).isEqualTo(-1);
        } finally {
            end();
        }
        assertThat(server.queryNames(new ObjectName("org.fastflowj:type=Node,*"), null))
                .isEmpty();
    }

    @Test
    void shouldNameABusyPortBeforeStartingAnything() throws IOException {
        try (ServerSocket busy = new ServerSocket(0)) {
            int port = busy.getLocalPort();
            assertThatThrownBy(() -> pipe.run(RunOptions.defaults().ui(port)))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("RunOptions.ui(" + port + "): cannot serve metrics on port " + port);
            assertThatThrownBy(pipe::waitEnd)
                    .as("the port is bound before any node thread starts")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has not been started");
        }
        assertThatThrownBy(() -> RunOptions.defaults().ui(70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ui(70000)");
    }

    private static HttpResponse<String> get(HttpClient client, URI uri) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static long sample(String body, String family, String node) {
        Matcher m = Pattern.compile("(?m)^" + family + "\\{node=\"" + Pattern.quote(node) + "\"} (\\d+)$")
                .matcher(body);
        assertThat(m.find()).as("%s for %s in%n%s", family, node, body).isTrue();
        return Long.parseLong(m.group(1));
    }
}
