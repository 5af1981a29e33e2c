package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.apps.FlowControlApp;
import org.fastflowj.dist.apps.ProcessCluster;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.serial.CraftedItems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real groups against a peer that completed a genuine handshake (it has the run's name, program and
 * config) and then misbehaves: items that build millions of objects, a receiver that never reads or reads a
 * byte a second. The group fails cleanly, non-zero, naming the peer and the bound it broke.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostilePeerProcessTest {
    private static final List<String> GROUPS = List.of("A", "B");

    @TempDir
    Path dir;

    @Test
    void shouldFailNamingTheSenderOfAnItemOfMillionsOfEmptyMapsWithoutRunningOutOfMemory() throws Exception {
        Path file = ProcessCluster.config(dir, GROUPS, "\"batchSize\": 1");
        DffConfig config = DffConfig.load(file);
        Pipeline program = FlowControlApp.program(1_000, 0, new long[2]);
        try (ProcessCluster cluster = ProcessCluster.start(
                        FlowControlApp.class, file, List.of("B"), List.of("-Xmx256m"), "1000", "0");
                HostilePeer peer = HostilePeer.connecting("A", "B", program, config)) {
            ByteBuf batch = peer.awaitLink(30).alloc().buffer(9 << 20);
            batch.writeByte(Frames.DATA).writeInt(0).writeInt(1);
            // 8.4 M maps in 8.4 MB: unbounded, about 400 MB of heap
            CraftedItems.listOfEmptyMaps(8_400_000, batch);
            peer.send(Frames.BATCH, batch);

            Map<String, Integer> codes = cluster.awaitExit(60);

            String out = cluster.output("B");
            assertThat(codes.get("B")).as(out).isEqualTo(1);
            assertThat(out)
                    .contains("group A at " + peer.localAddress() + " sent an item this group cannot read")
                    .contains("more than 1000000 objects (maxObjectsPerItem")
                    .contains("DFF_FAILED: A")
                    .doesNotContain("OutOfMemoryError")
                    .doesNotContain("out of memory");
        }
    }

    @Test
    void shouldFailNamingTheSenderOfAReferenceToAParameterValueItNeverSent() throws Exception {
        Path file = ProcessCluster.config(dir, GROUPS, "\"batchSize\": 1");
        DffConfig config = DffConfig.load(file);
        Pipeline program = FlowControlApp.program(1_000, 0, new long[2]);
        try (ProcessCluster cluster = ProcessCluster.start(
                        FlowControlApp.class,
                        file,
                        List.of("B"),
                        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
                        "1000",
                        "0");
                HostilePeer peer = HostilePeer.connecting("A", "B", program, config)) {
            ByteBuf batch = peer.awaitLink(30).alloc().buffer(256);
            batch.writeByte(Frames.DATA).writeInt(0).writeInt(1);
            CraftedItems.referenceToAValueNeverSent(5, batch);
            peer.send(Frames.BATCH, batch);

            Map<String, Integer> codes = cluster.awaitExit(60);

            String out = cluster.output("B");
            assertThat(codes.get("B")).as(out).isEqualTo(1);
            assertThat(out)
                    .contains("group A at " + peer.localAddress() + " sent an item this group cannot read")
                    .contains("names parameter value #5, which this group does not keep")
                    .contains("DFF_FAILED: A");
        }
    }

    @Test
    void shouldFailASenderWhosePeerHeartbeatsButNeverReads() throws Exception {
        assertTheSenderFailsWithinTheStallTimeout(0);
    }

    @Test
    void shouldFailASenderWhosePeerReadsAByteASecond() throws Exception {
        assertTheSenderFailsWithinTheStallTimeout(1);
    }

    /** A sends 100,000 items of 8 B; B reads {@code bytesPerSecond} of them, while heartbeats keep the link alive. */
    private void assertTheSenderFailsWithinTheStallTimeout(int bytesPerSecond) throws Exception {
        long stallMs = 3_000;
        Path file = ProcessCluster.config(
                dir,
                GROUPS,
                "\"batchSize\": 16, \"stallTimeoutMs\": " + stallMs
                        + ", \"heartbeatIntervalMs\": 200, \"heartbeatTimeoutMs\": 1000");
        DffConfig config = DffConfig.load(file);
        Pipeline program = FlowControlApp.program(100_000, 0, new long[2]);
        try (HostilePeer peer = HostilePeer.listening("B", "A", program, config, bytesPerSecond);
                ProcessCluster cluster =
                        ProcessCluster.start(FlowControlApp.class, file, List.of("A"), List.of(), "100000", "0")) {
            peer.awaitLink(30);
            long openedAt = System.nanoTime();

            Map<String, Integer> codes = cluster.awaitExit(30);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openedAt);

            String out = cluster.output("A");
            assertThat(codes.get("A")).as(out).isEqualTo(1);
            assertThat(out)
                    .containsPattern("group B at \\S+ took nothing for 3000 ms \\(stallTimeoutMs\\)")
                    .contains("DFF_FAILED: B");
            assertThat(tookMs).as(out).isBetween(stallMs, stallMs + 10_000);
        }
    }
}
