package org.fastflowj.dist.run.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PausableProxy;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stream that crawls across a throttled link for several stall time-outs does not trip it: the receiver
 * acknowledges batch after batch. ({@link HostilePeerProcessTest} shows that a peer that takes nothing does.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StallWatchTest {
    private static final long STALL_MS = 1_500;
    private static final int BATCHES = 20;
    private static final int BATCH_BYTES = 64 * 1024;

    @Test
    void shouldNotTripWhileAStreamCrawlsAcrossAThrottledLinkForSeveralTimeouts() throws Exception {
        AtomicInteger received = new AtomicInteger();
        CompletableFuture<String> failed = new CompletableFuture<>();
        OutboundLink out = new OutboundLink("A", "B", 4, 1L << 30, new int[] {0}, new int[0]);
        out.stallTimeoutMs(STALL_MS);
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        Transport receiving = Transport.start(settings("B"), loopback, Set.of("A"), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                int bytes = payload.readableBytes();
                payload.release();
                received.incrementAndGet();
                l.send(Frames.ACK, l.alloc().buffer(12).writeInt(1).writeLong(bytes));
            }
        });
        Transport sending = Transport.start(settings("A"), loopback, Set.of(), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                out.onAck(payload.readInt(), payload.readLong());
                payload.release();
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {
                failed.complete(out.onClosed(cause));
            }
        });
        try (PausableProxy proxy = new PausableProxy(receiving.boundAddress())) {
            PeerLink link = sending.connect("B", proxy.address());
            out.open(link);
            proxy.throttleUpstream(4096, 20); // about 200 KiB/s: 1.25 MiB take 6 s
            long sentAt = System.nanoTime();
            for (int i = 0; i < BATCHES; i++) {
                while (!out.windowOpen() && !failed.isDone()) {
                    Thread.sleep(1); // the sender's wait for credits, without a sender thread
                }
                assertThat(out.trySend(link.alloc().buffer(BATCH_BYTES).writeZero(BATCH_BYTES), 1))
                        .isTrue();
            }
            while (out.hasUnacknowledged() && !failed.isDone()) {
                Thread.sleep(1);
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);

            assertThat(failed)
                    .as("closed while the receiver acknowledged batches")
                    .isNotDone();
            assertThat(received.get()).isEqualTo(BATCHES);
            assertThat(tookMs).as("the stream must crawl for three time-outs").isGreaterThan(3 * STALL_MS);
            Thread.sleep(2 * STALL_MS); // nothing unacknowledged now: idle is no stall either
            assertThat(failed).as("closed while the socket took bytes").isNotDone();
            assertThat(link.isOpen()).isTrue();
            assertThat(out.hasUnacknowledged()).isFalse();
        } finally {
            sending.close();
            receiving.close();
        }
    }

    private static WireSettings settings(String group) {
        return WireSettings.defaults(group, 42).withHeartbeat(200, 1_000);
    }

    private abstract static class Handler implements PeerHandler {
        @Override
        public void onOpen(PeerLink l) {}

        @Override
        public void onClosed(PeerLink l, Throwable cause) {}
    }
}
