package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.apps.FlowControlApp;
import org.fastflowj.dist.apps.ProcessCluster;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;
import org.fastflowj.dist.serial.ItemCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receiver enforces the credits it grants: a peer that completes a genuine handshake and then floods
 * batches without waiting for ACKs fails the run naming it, and cannot grow the receiver's heap; a correct
 * sender never trips the check, whatever its batch size, credits and byte window ({@link CreditWindowTest}
 * checks each bound alone).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CreditEnforcementTest {
    private static final SerializationConfig SERIALIZATION =
            SerializationConfig.builder().build();

    @TempDir
    Path dir;

    @Test
    void shouldFailTheRunNamingAPeerThatSendsBeyondItsCredits() throws Exception {
        DffConfig config = LocalCluster.config(List.of("A", "B"), "\"messageOTF\": 4");
        Pipeline program = FlowControlApp.program(1_000, 60_000, new long[2]);
        Execution b = GroupRun.start(
                GraphCompiler.compile(program),
                RunOptions.defaults(),
                new DFF.Settings("B", config, SERIALIZATION, false));
        try (CreditIgnoringPeer peer = CreditIgnoringPeer.connect(program, config)) {
            peer.floodFor(TimeUnit.SECONDS.toNanos(20));

            assertThatThrownBy(b::await)
                    .hasMessageContaining("group A at " + peer.localAddress())
                    .hasMessageContaining("broke the flow-control protocol")
                    .hasMessageContaining("beyond the 4 unacknowledged batches");
        } finally {
            b.cancel();
        }
    }

    @Test
    void shouldExitNonZeroNamingTheFloodingPeerWithoutRunningOutOfMemory() throws Exception {
        Path file = ProcessCluster.config(dir, List.of("A", "B"), "\"batchSize\": 1");
        DffConfig config = DffConfig.load(file);
        Pipeline program = FlowControlApp.program(1_000, 60_000, new long[2]);
        try (ProcessCluster cluster =
                ProcessCluster.start(FlowControlApp.class, file, List.of("B"), List.of("-Xmx48m"), "1000", "60000")) {
            try (CreditIgnoringPeer peer = CreditIgnoringPeer.connect(program, config)) {
                peer.floodFor(TimeUnit.SECONDS.toNanos(30));

                Map<String, Integer> codes = cluster.awaitExit(30);

                String out = cluster.output("B");
                assertThat(codes.get("B")).as(out).isNotZero();
                assertThat(out)
                        .contains("group A at " + peer.localAddress() + " broke the flow-control protocol")
                        .doesNotContain("OutOfMemoryError")
                        .doesNotContain("out of memory");
            }
        }
    }

    @Test
    void shouldNeverTripOnACorrectSenderWhateverItsBatchSizeAndCredits() throws Exception {
        for (String tuning : List.of(
                "\"batchSize\": 1, \"messageOTF\": 1",
                "\"batchSize\": 1, \"messageOTF\": 3",
                // 3000 items of 1 KiB: the byte bound stops reading here, and the receiver waits for room
                "\"batchSize\": 7, \"messageOTF\": 64, \"maxBufferedBytesPerLink\": 262144",
                // batches of about 64 KiB: the byte window (256 KiB) holds the sender long before its credits
                "\"batchSize\": 64, \"messageOTF\": 256, \"maxBufferedBytesPerLink\": 262144")) {
            long[] sum = new long[1];
            Node<Void, long[]> source = Node.source(() -> LongStream.range(0, 3_000)
                    .mapToObj(i -> {
                        long[] item = new long[128];
                        Arrays.fill(item, Long.MIN_VALUE + i); // no small numbers: 8 bytes each
                        return item;
                    })
                    .iterator());
            Node<long[], Void> sink = Node.sink(x -> {
                long i = x[0] - Long.MIN_VALUE;
                sum[0] += i;
                if (i % 500 == 0) {
                    sleepMillis(20); // the consumer falls behind now and then: credits and bytes run out
                }
            });
            source.createGroup("A");
            sink.createGroup("B");

            LocalCluster.run(new Pipeline(source, sink), LocalCluster.config(List.of("A", "B"), tuning), 60);

            assertThat(sum[0]).as(tuning).isEqualTo(LongStream.range(0, 3_000).sum());
        }
    }

    @Test
    void shouldNotDeclareAPeerDeadWhileThisSideStoppedReadingFromIt() throws Exception {
        long[] sum = new long[1];
        Node<Void, byte[]> source = Node.source(() -> LongStream.range(0, 200)
                .mapToObj(i -> {
                    byte[] item = new byte[8192];
                    Arrays.fill(item, (byte) i);
                    return item;
                })
                .iterator());
        Node<byte[], Void> sink = Node.sink(x -> {
            if (sum[0]++ == 0) {
                sleepMillis(3_000);
            }
        });
        source.createGroup("A");
        sink.createGroup("B");
        // 256 KiB hold 32 items: B stops reading from A for most of the sink's 3 s sleep, three times the
        // heartbeat timeout
        DffConfig config = LocalCluster.config(
                List.of("A", "B"),
                "\"maxBufferedBytesPerLink\": 262144, \"heartbeatIntervalMs\": 200, \"heartbeatTimeoutMs\": 1000");

        LocalCluster.run(new Pipeline(source, sink), config, 60);

        assertThat(sum[0]).isEqualTo(200);
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Group A's name, program and config: a genuine handshake with B. Then it sends well-formed batches of
     * one item each as fast as its socket takes them, never waiting for an ACK.
     */
    private static final class CreditIgnoringPeer implements AutoCloseable {
        private final Transport transport;
        private final PeerLink link;
        private final int edge;
        private final ItemCodec codec = new ItemCodec(SERIALIZATION);

        private CreditIgnoringPeer(Transport transport, PeerLink link, int edge) {
            this.transport = transport;
            this.link = link;
            this.edge = edge;
        }

        static CreditIgnoringPeer connect(Pipeline program, DffConfig config) {
            Graph whole = GraphCompiler.compile(program);
            long fingerprint = Fingerprint.of(whole, config, SERIALIZATION.fingerprint());
            Transport transport = Transport.start(
                    WireSettings.defaults("A", fingerprint),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    Set.of(),
                    new PeerHandler() {
                        @Override
                        public void onOpen(PeerLink l) {}

                        @Override
                        public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                            payload.release(); // ACKs: ignored
                        }

                        @Override
                        public void onClosed(PeerLink l, Throwable cause) {}
                    });
            try {
                GroupConfig b = config.group("B").orElseThrow();
                PeerLink link = transport.connect("B", new InetSocketAddress(b.host(), b.port()));
                assertThat(whole.edges()).hasSize(1);
                return new CreditIgnoringPeer(transport, link, 0);
            } catch (RuntimeException e) {
                transport.close();
                throw e;
            }
        }

        String localAddress() {
            InetSocketAddress local = (InetSocketAddress) link.channel().localAddress();
            return local.getAddress().getHostAddress() + ":" + local.getPort();
        }

        /** Sends batches until B closes the connection, or for {@code nanos} at most. */
        void floodFor(long nanos) {
            long deadline = System.nanoTime() + nanos;
            long next = 0;
            while (link.isOpen() && System.nanoTime() - deadline < 0) {
                if (!link.isWritable()) {
                    Thread.onSpinWait();
                    continue;
                }
                ByteBuf batch = link.alloc().buffer(32);
                codec.startBatch();
                batch.writeByte(Frames.DATA).writeInt(edge).writeInt(1);
                codec.write(next++, batch);
                link.send(Frames.BATCH, batch);
            }
        }

        @Override
        public void close() {
            transport.close();
        }
    }
}
