package org.fastflowj.dist.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One group's network endpoint: it listens for the groups that send to it and connects to the groups
 * it sends to, one TCP connection per ordered pair of groups, each authenticated by a handshake.
 *
 * <p>Every channel, inbound or outbound, has this pipeline ({@code [ssl]} only with TLS):
 *
 * <pre>
 *                                    I/O request via PeerLink.send / close
 *                                                  |
 *  +-----------------------------------------------+---------------------+
 *  |  6. handshake  (Server|ClientHandshakeHandler, replaced by          |
 *  |                 LinkHandler once open: dispatch to PeerHandler)     |
 *  |        /|\                                    |                     |
 *  |  5. heartbeat  WriterIdleTimer: writer idle -> HEARTBEAT            |
 *  |  [seal]        FrameSealer: a MAC frame after each frame (outbound) |
 *  |  [open]        FrameOpener: passes a frame once its MAC checks out  |
 *  |        |                                      |                     |
 *  |  4. frames     FrameDecoder (LengthFieldBasedFrameDecoder,          |
 *  |        |       failFast, length 1 B to 4 KiB until the handshake    |
 *  |        |       succeeded, then up to maxFrameBytes)                 |
 *  |        |                                      |                     |
 *  |  3. idle       IdleStateHandler: no bytes read -> link dead         |
 *  |        |                                     \|/                    |
 *  |  2. flush      FlushConsolidationHandler (outbound only)            |
 *  |        |                                      |                     |
 *  |  1. [ssl]      SslHandler (mutual TLS)                              |
 *  +--------+--------------------------------------+---------------------+
 *           |              socket                 \|/
 * </pre>
 *
 * {@code [seal]} and {@code [open]} are added when the link opens, only with a shared secret, without
 * TLS, and not between two loopback addresses (see {@link WireSettings}). At most {@link
 * HandshakeAdmission#MAX_PENDING_HANDSHAKES} inbound connections may be in their handshake at once;
 * one more is closed before a byte is read.
 *
 * <p>Frames are encoded where they are sent ({@link PeerLink#send}): a 5-byte header and the payload in
 * one composite buffer, one write, no copy. Any exception closes its connection and is reported once:
 * before the handshake through {@link PeerHandler#onRefused} (inbound) or the exception of {@link
 * #connect} (outbound), afterwards through {@link PeerHandler#onClosed}.
 *
 * <p>Threading: {@link #connect} blocks its caller and must not run on an event loop; every other
 * method may be called from any thread. {@link PeerHandler} callbacks run on the event loops.
 */
public final class Transport implements AutoCloseable {
    /** How long {@link #close()} waits for channels and event loops. */
    static final long CLOSE_WAIT_MS = 2_000;

    private final WireSettings settings;
    private final PeerHandler handler;
    private final IoThreads io;
    private final TlsContexts tlsOrNull;
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, Channel> connectedInbound = new ConcurrentHashMap<>();
    private final HandshakeAdmission admission;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Channel serverChannel;

    private Transport(WireSettings settings, PeerHandler handler) {
        this.settings = settings;
        this.handler = handler;
        this.tlsOrNull = settings.tlsOrNull() == null ? null : TlsContexts.load(settings.tlsOrNull());
        this.io = IoThreads.create(settings.localGroup());
        this.admission = new HandshakeAdmission(settings.localGroup(), HandshakeAdmission.MAX_PENDING_HANDSHAKES);
    }

    /**
     * Listens on exactly {@code listenAddress} (not the wildcard address) for the groups in {@code
     * allowedInbound}. Throws {@link IllegalStateException} naming the address if it cannot bind.
     */
    public static Transport start(
            WireSettings settings, InetSocketAddress listenAddress, Set<String> allowedInbound, PeerHandler handler) {
        if (listenAddress.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve the listen address " + listenAddress);
        }
        Transport transport = new Transport(settings, handler);
        transport.bind(listenAddress, Set.copyOf(allowedInbound));
        return transport;
    }

    private void bind(InetSocketAddress listenAddress, Set<String> allowedInbound) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(io.group())
                .channel(io.serverChannelClass())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(initializer(
                        () -> new ServerHandshakeHandler(
                                settings, handler, allowedInbound, connectedInbound, admission),
                        null,
                        null));
        ChannelFuture bound = bootstrap.bind(listenAddress).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            close();
            throw new IllegalStateException(
                    "group " + settings.localGroup() + " cannot listen on " + Addresses.describe(listenAddress) + ": "
                            + bound.cause().getMessage(),
                    bound.cause());
        }
        serverChannel = bound.channel();
    }

    /** The address actually bound (with the real port when 0 was asked for). */
    public InetSocketAddress boundAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Connects to {@code peerGroup} and shakes hands, retrying refused or unreachable connections 5 to
     * 20 ms apart for 2 s, then up to 100 ms apart ({@link ConnectBackoff}), until the connect timeout. Throws {@link
     * PeerUnavailableException} when the peer did not come up in time, {@link PeerRefusedException}
     * at once when it refused us, {@link PeerLinkFailedException} when the handshake failed otherwise.
     */
    public PeerLink connect(String peerGroup, InetSocketAddress address) {
        requireNotOnEventLoop();
        if (closed.get()) {
            throw new IllegalStateException("transport of group " + settings.localGroup() + " is closed");
        }
        return new Connector(this, peerGroup, address).connect();
    }

    /** A client bootstrap whose handshake reports to {@code result}. */
    Bootstrap clientBootstrap(String peerGroup, InetSocketAddress address, Promise<PeerLink> result) {
        String described = Addresses.describe(address);
        return new Bootstrap()
                .group(io.group())
                .channel(io.socketChannelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(initializer(
                        () -> new ClientHandshakeHandler(settings, handler, peerGroup, described, result),
                        address,
                        settings.tlsName(peerGroup).orElse(address.getHostString())));
    }

    Promise<PeerLink> newPromise() {
        return io.group().next().newPromise();
    }

    WireSettings settings() {
        return settings;
    }

    private ChannelInitializer<Channel> initializer(
            java.util.function.Supplier<AbstractHandshakeHandler> handshake,
            InetSocketAddress peerOrNull,
            String peerTlsNameOrNull) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (peerOrNull == null && !admission.tryAdmit(ch.remoteAddress())) {
                    ch.close();
                    return;
                }
                channels.add(ch);
                ch.closeFuture().addListener(f -> channels.remove(ch));
                ChannelPipeline p = ch.pipeline();
                if (tlsOrNull != null) {
                    SslContext ssl = peerOrNull == null ? tlsOrNull.server() : tlsOrNull.client();
                    p.addLast(
                            "ssl",
                            peerOrNull == null
                                    ? ssl.newHandler(ch.alloc())
                                    : ssl.newHandler(ch.alloc(), peerTlsNameOrNull, peerOrNull.getPort()));
                }
                p.addLast("flush", new FlushConsolidationHandler(256, true));
                // Reader idleness only: Netty's handler then passes writes through untouched (see
                // WriterIdleTimer for why writer idleness is timed by a handler of ours). Ahead of the frame
                // decoder, so that any bytes read count: a frame that takes longer than the time-out to
                // cross a slow link (8 MiB at 8 Mbit/s: 8 s) is data arriving, not a silent peer. (Netty's
                // handler counts a read only once a message passed it; partial frames pass nothing.)
                p.addLast("idle", new IdleStateHandler(settings.heartbeatTimeoutMs(), 0, 0, TimeUnit.MILLISECONDS));
                p.addLast(FrameDecoder.NAME, FrameDecoder.beforeHandshake(settings.maxFrameBytes()));
                p.addLast(WriterIdleTimer.NAME, new WriterIdleTimer(settings.heartbeatIntervalMs()));
                p.addLast(AbstractHandshakeHandler.NAME, handshake.get());
            }
        };
    }

    /** How many of this transport's event loops carry traffic when it has {@code connections} connections. */
    public int busyIoThreads(int connections) {
        return Math.min(IoThreads.THREADS, connections);
    }

    /**
     * Closes every connection (each reports {@code onClosed(null)}) and stops the event loops, waiting
     * up to about 2 s (not at all when called on an event loop). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        boolean mayWait = !onEventLoop();
        List<ChannelFuture> closing = new ArrayList<>();
        if (serverChannel != null) {
            closing.add(serverChannel.close());
        }
        for (Channel channel : channels) {
            closing.add(channel.close());
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        if (mayWait) {
            for (ChannelFuture future : closing) {
                future.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        var shutdown = io.group().shutdownGracefully(0, CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        if (mayWait) {
            shutdown.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    private boolean onEventLoop() {
        for (EventExecutor loop : io.group()) {
            if (loop.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    private void requireNotOnEventLoop() {
        if (onEventLoop()) {
            throw new IllegalStateException("connect() blocks and must not be called on a network event loop");
        }
    }
}
