package org.fastflowj.bench.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.fastflowj.bench.net.GroupToGroup.Serialization;
import org.fastflowj.bench.net.NettyBaseline.Flush;
import org.fastflowj.bench.queue.SpscHandOff;
import org.fastflowj.dist.DFF;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The drivers of {@link NetThroughput} on small inputs: each must deliver every message, read in full,
 * whatever the batch size (a last frame only partly filled included), or the ratios would compare
 * unequal work. Both drivers check the count and the payload checksum themselves and throw otherwise;
 * no timing is asserted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetThroughputDriversTest {
    private static final int MESSAGES = 5_003; // not a multiple of any batch size below

    @ParameterizedTest
    @CsvSource({"8, 1, EACH_FRAME", "8, 32, CONSOLIDATED", "65536, 8, EACH_FRAME", "65536, 8, CONSOLIDATED"})
    void shouldDeliverEveryMessageThroughPlainNetty(int payloadBytes, int batchSize, Flush flush) throws Exception {
        int messages = payloadBytes > 1024 ? MESSAGES / 10 : MESSAGES;
        Transfer transfer = NettyBaseline.run(messages, payloadBytes, batchSize, 4, flush);

        assertThat(transfer.messages()).isEqualTo(messages);
        assertThat(transfer.nanos()).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"8, 1, BACKOFF", "8, 32, BACKOFF", "8, 32, PARK", "65536, 8, BACKOFF", "65536, 8, PARK"})
    void shouldDeliverEveryMessageThroughPlainNettyViaHandOffs(int payloadBytes, int batchSize, SpscHandOff.Wait wait)
            throws Exception {
        int messages = payloadBytes > 1024 ? MESSAGES / 10 : MESSAGES;
        Transfer transfer = NettyHandOff.run(messages, payloadBytes, batchSize, 4, wait);

        assertThat(transfer.messages()).isEqualTo(messages);
        assertThat(transfer.nanos()).isPositive();
    }

    @Test
    void shouldKeepPlainNettysFramesInFlightUnderFfDistsByteWindow() {
        // 512 B at batch 8: 4 KiB frames, the batch credits bound them; 64 KiB at batch 128: 8 MiB frames,
        // ff-dist's sender stops at 32 MiB unacknowledged, after 4 of them
        assertThat(NettyBaseline.credits(256, 8, 512)).isEqualTo(256);
        assertThat(NettyBaseline.credits(256, 128, 65536)).isEqualTo(4);
        assertThat(NettyBaseline.credits(256, 1, 64 << 20))
                .as("a frame larger than the window goes alone")
                .isOne();
    }

    @ParameterizedTest
    @CsvSource({
        "8, 1, KRYO",
        "8, 32, CUSTOM",
        "65536, 8, KRYO",
        "65536, 8, CUSTOM",
        "8, 32, PREBATCHED",
        "65536, 3, PREBATCHED",
        "8, 32, CHUNKED",
        "65536, 3, CHUNKED"
    })
    void shouldDeliverEveryMessageBetweenTwoGroups(int payloadBytes, int batchSize, Serialization serialization)
            throws Exception {
        int messages = payloadBytes > 1024 ? MESSAGES / 10 : MESSAGES;
        Transfer transfer = GroupToGroup.run(messages, payloadBytes, batchSize, 4, serialization);

        assertThat(transfer.messages()).isEqualTo(messages);
        assertThat(transfer.nanos()).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"8, 1", "8, 128", "65536, 8"})
    void shouldDeliverEveryMessageBetweenTwoGroupsWithSealedFrames(int payloadBytes, int batchSize, @TempDir Path dir)
            throws Exception {
        int messages = payloadBytes > 1024 ? MESSAGES / 10 : MESSAGES;
        Path secret = Files.writeString(dir.resolve("secret"), "bench");
        System.setProperty(DFF.SEAL_LOOPBACK_PROPERTY, "true");
        try {
            Transfer transfer =
                    GroupToGroup.run(messages, payloadBytes, batchSize, 4, Serialization.CUSTOM, secret.toString());

            assertThat(transfer.messages()).isEqualTo(messages);
        } finally {
            System.clearProperty(DFF.SEAL_LOOPBACK_PROPERTY);
        }
    }

    @Test
    void shouldDeliverEveryTimestampOfATrickleInOneProcessAndAcrossGroups() throws Exception {
        TrickleLatency.Delays local = TrickleLatency.oneProcess(40, 200);
        TrickleLatency.Delays remote = TrickleLatency.twoGroups(40, 200);

        // every item arrived (the drivers throw otherwise), and its delay was measured after it was sent
        assertThat(local.sortedNanos()).hasSize(36);
        assertThat(local.sortedNanos()[0]).isPositive(); // sorted: the smallest first
        assertThat(remote.sortedNanos()).hasSize(36);
        assertThat(remote.sortedNanos()[0]).isPositive();
    }
}
