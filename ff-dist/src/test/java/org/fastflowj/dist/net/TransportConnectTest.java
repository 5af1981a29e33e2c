package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.net.RecordingPeerHandler.next;
import static org.fastflowj.dist.net.TransportFixture.loopback;
import static org.fastflowj.dist.net.TransportFixture.settings;

import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TransportConnectTest {
    private final TransportFixture fixture = new TransportFixture();
    private final RecordingPeerHandler serverEvents = new RecordingPeerHandler();
    private final RecordingPeerHandler clientEvents = new RecordingPeerHandler();

    @AfterEach
    void closeTransports() {
        fixture.close();
    }

    @Test
    void shouldKeepRetryingUntilThePeerComesUp() throws Exception {
        InetSocketAddress address = loopback(TransportFixture.freePort());
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);
        CompletableFuture<Void> serverStarted = CompletableFuture.runAsync(() -> {
            sleepQuietly(300); // the peer comes up late: the behaviour under test
            fixture.start(settings("G2"), address, Set.of("G1"), serverEvents);
        });

        PeerLink link = client.connect("G2", address);

        serverStarted.get(10, TimeUnit.SECONDS);
        assertThat(link.peerGroup()).isEqualTo("G2");
        assertThat(next(serverEvents.opened).peerGroup()).isEqualTo("G1");
    }

    @Test
    void shouldGiveUpAfterTheConnectTimeoutNamingGroupAndAddress() throws Exception {
        int port = TransportFixture.freePort();
        Transport client = fixture.start(settings("G1").withTimeouts(700, 3_000), Set.of(), clientEvents);
        long start = System.nanoTime();

        assertThatThrownBy(() -> client.connect("G3", loopback(port)))
                .isInstanceOf(PeerUnavailableException.class)
                .hasMessage("group G3 at 127.0.0.1:" + port + " did not come up within 700 ms: Connection refused");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMs).isBetween(650L, 3_000L);
    }

    @Test
    void shouldNameTheAddressWhenItCannotListen() throws Exception {
        Transport first = fixture.start(settings("G2"), Set.of(), serverEvents);
        InetSocketAddress taken = first.boundAddress();

        assertThatThrownBy(() -> fixture.start(settings("G2"), taken, Set.of(), serverEvents))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("group G2 cannot listen on 127.0.0.1:" + taken.getPort());
    }

    @Test
    void shouldListenOnExactlyTheGivenHostAddress() {
        Transport server = fixture.start(settings("G2"), Set.of(), serverEvents);

        assertThat(server.boundAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(server.boundAddress().getAddress().isAnyLocalAddress()).isFalse();
        assertThat(server.boundAddress().getPort()).isPositive();
    }

    @Test
    void shouldRefuseToBlockAnEventLoopInConnect() throws Exception {
        Transport server = fixture.start(settings("G2"), Set.of("G1"), serverEvents);
        Transport client = fixture.start(settings("G1"), Set.of(), clientEvents);
        PeerLink link = client.connect("G2", server.boundAddress());
        CompletableFuture<Throwable> fromLoop = new CompletableFuture<>();

        link.channel().eventLoop().execute(() -> {
            try {
                client.connect("G2", server.boundAddress());
                fromLoop.complete(null);
            } catch (RuntimeException e) {
                fromLoop.complete(e);
            }
        });

        assertThat(fromLoop.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event loop");
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
