package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.PeerRefusedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** TLS, the shared secret, a program that is not the same, a stranger on the port, link statistics. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SecurityAndStrangersTest {
    @TempDir
    Path dir;

    private final long[] sum = new long[1];

    private Pipeline program(long items, long sinkSleepMicros) {
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, items).boxed().iterator());
        Node<Long, Void> sink = Node.sink(x -> {
            sum[0] += x;
            if (sinkSleepMicros > 0) {
                long until = System.nanoTime() + sinkSleepMicros * 1000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
        });
        source.createGroup("A");
        sink.createGroup("B");
        return new Pipeline(source, sink);
    }

    private DffConfig config(String extra) throws Exception {
        String json = "{" + extra + (extra.isBlank() ? "" : ",") + " \"groups\": ["
                + "{\"name\": \"A\", \"endpoint\": \"127.0.0.1:" + LocalCluster.freePort() + "\"},"
                + "{\"name\": \"B\", \"endpoint\": \"127.0.0.1:" + LocalCluster.freePort() + "\"}]}";
        Path file = dir.resolve("app-" + System.nanoTime() + ".json");
        Files.writeString(file, json);
        return DffConfig.load(file);
    }

    private Path secret(String name, String value) throws Exception {
        return Files.writeString(dir.resolve(name), value + "\n");
    }

    @Test
    void shouldRunOverMutualTls() throws Exception {
        X509Bundle ca = new CertificateBuilder()
                .subject("CN=test CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        X509Bundle cert = new CertificateBuilder()
                .subject("CN=group")
                .addSanIpAddress("127.0.0.1")
                .ecp256()
                .buildIssuedBy(ca);
        Files.writeString(dir.resolve("ca.pem"), ca.getCertificatePEM());
        Files.writeString(dir.resolve("group.pem"), cert.getCertificatePathPEM());
        Files.writeString(dir.resolve("group.key"), cert.getPrivateKeyPEM());
        DffConfig config =
                config("\"tls\": {\"certFile\": \"group.pem\", \"keyFile\": \"group.key\", \"trustFile\": \"ca.pem\"},"
                        + " \"secretFile\": \"" + secret("s", "tls and a secret") + "\"");

        LocalCluster.run(program(10_000, 0), config, 60);

        assertThat(sum[0]).isEqualTo(LongStream.range(0, 10_000).sum());
    }

    @Test
    void shouldRefuseACertificateFromTheRightCaIssuedForAnotherName() throws Exception {
        X509Bundle ca = new CertificateBuilder()
                .subject("CN=test CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        X509Bundle other = new CertificateBuilder()
                .subject("CN=someone else")
                .addSanDnsName("other.test")
                .ecp256()
                .buildIssuedBy(ca);
        Files.writeString(dir.resolve("ca.pem"), ca.getCertificatePEM());
        Files.writeString(dir.resolve("other.pem"), other.getCertificatePathPEM());
        Files.writeString(dir.resolve("other.key"), other.getPrivateKeyPEM());
        // Both groups hold the same CA-signed certificate, which names neither of them (127.0.0.1).
        // connectTimeoutMs leaves room for a slow TLS start on a loaded machine.
        DffConfig config = config("\"connectTimeoutMs\": 10000, \"tls\": {\"certFile\": \"other.pem\", \"keyFile\":"
                + " \"other.key\", \"trustFile\": \"ca.pem\"}");

        Map<String, Throwable> failures = LocalCluster.runCollecting(
                program(100, 0), config, SerializationConfig.builder().build(), RunOptions.defaults(), 30);

        assertThat(failures.get("A"))
                .hasMessageContaining("handshake with group B at 127.0.0.1:")
                .hasMessageContaining("the server presented the wrong certificate: the certificate names"
                        + " [CN=someone else, DNS:other.test] but group B must present one for '127.0.0.1'");
        assertThat(failures.get("B")).hasMessageContaining("group A").hasMessageContaining("did not connect");
    }

    @Test
    void shouldRefuseAGroupWithTheWrongSecret() throws Exception {
        DffConfig right =
                config("\"secretFile\": \"" + secret("right", "open sesame") + "\", \"connectTimeoutMs\": 2000");
        Path wrongFile = dir.resolve("wrong.json");
        Files.writeString(
                wrongFile,
                Files.readString(Path.of(dir.toString(), right.source()))
                        .replace(
                                dir.resolve("right").toString(),
                                secret("wrong", "open barley").toString()));
        DffConfig wrong = DffConfig.load(wrongFile);

        Map<String, Throwable> failures = LocalCluster.runCollecting(
                program(100, 0),
                right,
                g -> "A".equals(g) ? wrong : right,
                SerializationConfig.builder().build(),
                RunOptions.defaults(),
                30);

        assertThat(failures.get("A"))
                .isInstanceOf(PeerRefusedException.class)
                .hasMessageContaining("group B at 127.0.0.1:")
                .hasMessageContaining("refused the connection")
                .hasMessageContaining("the accepting group logs why");
        assertThat(failures.get("B")).hasMessageContaining("group A").hasMessageContaining("did not connect");
    }

    @Test
    void shouldRefuseAProcessRunningAnotherProgram() throws Exception {
        DffConfig config =
                config("\"connectTimeoutMs\": 2000, \"secretFile\": \"" + secret("shared", "same secret") + "\"");
        Pipeline other = new Pipeline(Node.source(List.of(1L)), Node.of((Long x) -> x), Node.sink(x -> {}));
        other.stages().get(0).createGroup("A");
        other.stages().get(1).createGroup("B");
        other.stages().get(2).createGroup("B2");
        // B runs the real program, A a program with another graph: A's handshake is refused
        CompletableFuture<Execution> b = CompletableFuture.supplyAsync(() ->
                GroupRun.start(GraphCompiler.compile(program(10, 0)), RunOptions.defaults(), settings("B", config)));
        DffConfig otherConfig = DffConfig.parse(
                Files.readString(Path.of(dir.toString(), config.source()))
                        .replace(
                                "]}",
                                ", {\"name\": \"B2\", \"endpoint\": \"127.0.0.1:" + LocalCluster.freePort() + "\"}]}"),
                "other.json");

        Throwable refused = null;
        try {
            GroupRun.start(GraphCompiler.compile(other), RunOptions.defaults(), settings("A", otherConfig));
        } catch (RuntimeException e) {
            refused = e;
        }
        assertThat(refused).isInstanceOf(PeerRefusedException.class).hasMessageContaining("fingerprint");
        Execution bRun = b.get(20, TimeUnit.SECONDS);
        assertThat(catching(bRun)).hasMessageContaining("group A").hasMessageContaining("did not connect");
    }

    @Test
    void shouldFinishTheRunWhileAStrangerSendsGarbageToAGroup() throws Exception {
        DffConfig config = config("");
        GroupConfig b = config.group("B").orElseThrow();
        CompletableFuture<Void> stranger = CompletableFuture.runAsync(() -> {
            Random random = new Random(7);
            for (int attempt = 0; attempt < 20; attempt++) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(b.host(), b.port()), 500);
                    OutputStream out = s.getOutputStream();
                    byte[] junk = new byte[4096];
                    random.nextBytes(junk);
                    out.write(attempt % 2 == 0 ? junk : "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (Exception e) {
                    // not listening yet, or it hung up on us: both fine
                }
                try {
                    Thread.sleep(50); // the stranger's pace
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        LocalCluster.run(program(20_000, 20), config, 60);
        stranger.get(30, TimeUnit.SECONDS);

        assertThat(sum[0]).isEqualTo(LongStream.range(0, 20_000).sum());
    }

    @Test
    void shouldReportTheRemoteLinksInTheRunStatistics() throws Exception {
        DffConfig config = config("\"batchSize\": 10");
        Pipeline program = program(1_000, 0);
        CompletableFuture<Execution> a = CompletableFuture.supplyAsync(
                () -> GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("A", config)));
        Execution b = GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("B", config));
        Execution aRun = a.get(30, TimeUnit.SECONDS);
        aRun.await();
        b.await();

        LinkStats sent = aRun.stats().links().get(0);
        LinkStats received = b.stats().links().get(0);
        assertThat(sent.link()).isEqualTo("A -> B");
        assertThat(sent.messages()).isEqualTo(1_001); // the items and the EOS
        assertThat(sent.batches()).isBetween(101L, 1_001L);
        assertThat(received.link()).isEqualTo("A -> B");
        assertThat(received.batches()).isEqualTo(sent.batches());
        assertThat(received.messages()).isEqualTo(sent.messages());
        assertThat(received.bytes()).isEqualTo(sent.bytes());
        assertThat(aRun.stats().toTable()).contains("A -> B");
    }

    @Test
    void shouldTellAStrangerNothingAndRefuseItsForgedHelloUnderTheLaunchersSecret() throws Exception {
        DffConfig config = config("\"connectTimeoutMs\": 30000");
        UnaryOperator<String> launched = Map.of("DFF_Secret", "fresh per-run secret")::get;
        Pipeline program = program(1_000, 0);
        long fingerprint = Fingerprint.of(
                GraphCompiler.compile(program),
                config,
                SerializationConfig.builder().build().fingerprint());
        // B (the sink) starts and waits for A; the stranger gets there first.
        CompletableFuture<Execution> b = CompletableFuture.supplyAsync(() ->
                GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("B", config), launched));
        GroupConfig bAt = config.group("B").orElseThrow();

        byte[] refusal = Stranger.helloAndRead(bAt.host(), bAt.port(), "stranger", "victim", 1L);
        String seen = new String(refusal, StandardCharsets.ISO_8859_1);
        assertThat(seen)
                .contains("refused; the accepting group logs why")
                .doesNotContain(
                        Long.toHexString(fingerprint), Long.toString(fingerprint), "\"A\"", "group A", "group B")
                .doesNotContain(new String(Stranger.longBytes(fingerprint), StandardCharsets.ISO_8859_1));
        // Even knowing everything but the secret (the right names and fingerprint), it is refused.
        byte[] forged = Stranger.helloAndRead(bAt.host(), bAt.port(), "A", "B", fingerprint);
        assertThat(new String(forged, StandardCharsets.ISO_8859_1)).contains("refused; the accepting group logs why");

        Execution a =
                GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings("A", config), launched);
        a.await();
        b.get(30, TimeUnit.SECONDS).await();
        assertThat(sum[0]).isEqualTo(LongStream.range(0, 1_000).sum()); // nothing forged reached the sink
    }

    @Test
    void shouldRefuseToStartByHandWithoutSecretWhenAnEndpointIsNotLoopback() throws Exception {
        String json = "{\"groups\": [{\"name\": \"A\", \"endpoint\": \"127.0.0.1:" + LocalCluster.freePort() + "\"},"
                + "\n {\"name\": \"B\", \"endpoint\": \"192.0.2.7:" + LocalCluster.freePort() + "\"}]}";
        DffConfig config = DffConfig.parse(json, "by-hand.json");

        Throwable failure = null;
        try {
            GroupRun.start(
                    GraphCompiler.compile(program(10, 0)), RunOptions.defaults(), settings("A", config), n -> null);
        } catch (RuntimeException e) {
            failure = e;
        }

        assertThat(failure)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("by-hand.json:2:2: groups[1].endpoint: group 'B' uses the non-loopback endpoint"
                        + " \"192.0.2.7:")
                .hasMessageContaining("group 'A' has no secret")
                .hasMessageContaining("launcher")
                .hasMessageContaining("secretFile or secretEnv")
                .hasMessageContaining("\"insecure\": true");
    }

    @Test
    void shouldFinishTheRunWhileStrangersFloodAGroupWithLargePreHandshakeFrames() throws Exception {
        DffConfig config = config("\"secretFile\": \"" + secret("flood", "flood secret") + "\"");
        GroupConfig b = config.group("B").orElseThrow();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger cut = new AtomicInteger();
        List<CompletableFuture<Void>> flooders = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            flooders.add(CompletableFuture.runAsync(() -> {
                byte[] bigFrame = new byte[256 * 1024];
                ByteBuffer.wrap(bigFrame).putInt(64 << 20).put((byte) 0x02); // a 64 MiB "HELLO"
                while (running.get()) {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(b.host(), b.port()), 500);
                        s.setSoTimeout(5_000);
                        s.getOutputStream().write(bigFrame);
                        if (s.getInputStream().read(new byte[64]) >= 0) {
                            while (s.getInputStream().read(new byte[4096]) >= 0) {
                                // the CHALLENGE, then the end
                            }
                        }
                        cut.incrementAndGet();
                    } catch (Exception e) {
                        cut.incrementAndGet(); // reset or not listening yet: cut too
                    }
                }
            }));
        }
        try {
            LocalCluster.run(program(20_000, 0), config, 60);
        } finally {
            running.set(false);
            CompletableFuture.allOf(flooders.toArray(new CompletableFuture<?>[0]))
                    .get(30, TimeUnit.SECONDS);
        }

        assertThat(sum[0]).isEqualTo(LongStream.range(0, 20_000).sum());
        assertThat(cut.get()).isPositive();
    }

    @Test
    void shouldCompleteARunWithEveryFrameSealedByItsMac() throws Exception {
        DffConfig config = config("\"secretFile\": \"" + secret("sealed", "seal them") + "\", \"batchSize\": 16");
        System.setProperty(DFF.SEAL_LOOPBACK_PROPERTY, "true");
        try {
            LocalCluster.run(program(20_000, 0), config, 60);
        } finally {
            System.clearProperty(DFF.SEAL_LOOPBACK_PROPERTY);
        }

        assertThat(sum[0]).isEqualTo(LongStream.range(0, 20_000).sum());
    }

    private static DFF.Settings settings(String group, DffConfig config) {
        return new DFF.Settings(group, config, SerializationConfig.builder().build(), false);
    }

    private static Throwable catching(Execution run) {
        try {
            run.await();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}
