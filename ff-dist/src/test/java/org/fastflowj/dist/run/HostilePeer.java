package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.FixedRecvByteBufAllocator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;

/**
 * A group of the run, with its name, program and config (a genuine handshake: it holds whatever the
 * run's groups hold), that then breaks the rules: it sends frames it builds itself, or, as a receiver,
 * takes its peer's bytes slowly or not at all while its heartbeats go on.
 */
public final class HostilePeer implements AutoCloseable {
    private final Transport transport;
    private final CompletableFuture<PeerLink> opened = new CompletableFuture<>();
    private volatile PeerLink link;

    private HostilePeer(
            String group,
            Pipeline program,
            DffConfig config,
            InetSocketAddress bind,
            Set<String> from,
            Consumer<PeerLink> onOpen) {
        Graph whole = GraphCompiler.compile(program);
        long fingerprint =
                Fingerprint.of(whole, config, SerializationConfig.defaults().fingerprint());
        WireSettings settings = WireSettings.defaults(group, fingerprint)
                .withHeartbeat(config.heartbeatIntervalMs(), config.heartbeatTimeoutMs());
        transport = Transport.start(settings, bind, from, new PeerHandler() {
            @Override
            public void onOpen(PeerLink l) {
                onOpen.accept(l);
                link = l;
                opened.complete(l);
            }

            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                payload.release(); // whatever the group says: ignored
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {}
        });
    }

    /** Group {@code group} of {@code config} connecting to {@code to}, as that group's sender does. */
    public static HostilePeer connecting(String group, String to, Pipeline program, DffConfig config) {
        HostilePeer peer = new HostilePeer(
                group, program, config, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Set.of(), l -> {});
        try {
            GroupConfig target = config.group(to).orElseThrow();
            peer.link = peer.transport.connect(to, new InetSocketAddress(target.host(), target.port()));
            return peer;
        } catch (RuntimeException e) {
            peer.close();
            throw e;
        }
    }

    /**
     * Group {@code group} listening on its endpoint for {@code from}; once connected it reads nothing
     * ({@code bytesPerSecond} 0), or that many bytes a second, one read at a time.
     */
    static HostilePeer listening(String group, String from, Pipeline program, DffConfig config, int bytesPerSecond) {
        GroupConfig mine = config.group(group).orElseThrow();
        return new HostilePeer(
                group, program, config, new InetSocketAddress(mine.host(), mine.port()), Set.of(from), l -> {
                    l.pauseReading();
                    if (bytesPerSecond > 0) {
                        Channel channel = l.channel();
                        channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(1));
                        channel.eventLoop()
                                .scheduleAtFixedRate(
                                        channel::read, 0, 1_000_000 / bytesPerSecond, TimeUnit.MICROSECONDS);
                    }
                });
    }

    public PeerLink awaitLink(long seconds) throws Exception {
        return link != null ? link : opened.get(seconds, TimeUnit.SECONDS);
    }

    /** The link, once open (it is, after {@link #connecting} or {@link #awaitLink}). */
    public PeerLink awaitLinkQuietly() {
        return link;
    }

    /** Where the group sees this peer from, as its messages print it ({@code 127.0.0.1:40123}). */
    public String localAddress() {
        InetSocketAddress local = (InetSocketAddress) link.channel().localAddress();
        return local.getAddress().getHostAddress() + ":" + local.getPort();
    }

    public void send(byte type, ByteBuf payload) {
        link.send(type, payload);
    }

    @Override
    public void close() {
        transport.close();
    }
}
