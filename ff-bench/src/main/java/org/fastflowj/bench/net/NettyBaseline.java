package org.fastflowj.bench.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.dist.GroupConfig;

/**
 * The baseline of {@link NetThroughput}: plain Netty moving the same payload bytes over loopback TCP,
 * with the same transport as ff-dist (native epoll when it loads, else NIO; {@code TCP_NODELAY}; one
 * event loop group of 2 threads per side; a length field frame decoder, and optionally ff-dist's
 * {@code FlushConsolidationHandler(256, true)}, see {@link Flush}), the same batching and the same
 * credit-based flow control, and nothing else: no handshake, heartbeats, serialization framework or
 * node threads.
 *
 * <pre>
 *   caller thread (sender)                               server event loop (receiver)
 *   ┌──────────────────────────────────┐                 ┌──────────────────────────────────────────┐
 *   │ wait for a credit                │  frame:         │ LengthFieldBasedFrameDecoder             │
 *   │ one exactly sized buffer:        │  int32 length   │ per message: int32 length, new byte[len],│
 *   │  batchSize × [int32 len][payload]│ ─────TCP──────▶ │   copy the payload into it, count it     │
 *   │ writeAndFlush (one frame)        │  messages*      │ ACK [int32 4][int32 1] per frame,        │
 *   └──────────────────────────────────┘                 │   flushed once per read                  │
 *          ▲  credits += n  (client event loop)          └──────────────────────────────────────────┘
 *          └──────────────────── ACK ─────────────────────────────┘
 * </pre>
 *
 * <p>Per message the sender copies the payload array into the frame (as a serializer does) and the
 * receiver copies it out into a new array (as a deserializer must), so both ends touch every byte once,
 * like ff-dist with a custom serializer. At most {@code framesInFlight} frames are unacknowledged
 * (ff-dist's {@code messageOTF}), and no more than ff-dist's byte window lets its sender have ({@link
 * #credits}); the sender parks while it has no credit. The clock runs from the
 * first frame built to the last message read; connecting is not timed (nor is it for ff-dist).
 *
 * <p>Threading: {@link #run} blocks its caller, which is the sending thread; the receiving happens on
 * the server's event loop, acknowledgements are counted on the client's.
 */
public final class NettyBaseline {
    private static final int EVENT_LOOP_THREADS = 2;
    private static final int LENGTH_BYTES = Integer.BYTES;
    /** As ff-dist's Transport: flushes from outside the event loop are merged, up to 256 per syscall. */
    private static final int CONSOLIDATED_FLUSHES = 256;

    private NettyBaseline() {}

    /** How the sender's flushes reach the socket. */
    public enum Flush {
        /** One write syscall per frame: plain Netty as most programs use it. */
        EACH_FRAME,
        /**
         * Through a {@code FlushConsolidationHandler(256, true)}, as ff-dist's pipeline: the flush of a frame
         * written from the sender thread runs as a later event-loop task, so the frames queued meanwhile
         * leave in one write.
         */
        CONSOLIDATED
    }

    /** Moves {@code messages} messages of {@code payloadBytes} bytes; returns how long it took. */
    public static Transfer run(int messages, int payloadBytes, int batchSize, int framesInFlight, Flush flush)
            throws InterruptedException, TimeoutException {
        Receiver receiver = new Receiver(messages);
        try (Link link = Link.open(payloadBytes, batchSize, framesInFlight, flush, receiver)) {
            long start = System.nanoTime();
            send(link.client, link.credits, Payload.of(payloadBytes), messages, batchSize);
            long end = receiver.awaitLast(messages, payloadBytes);
            return new Transfer(receiver.received, payloadBytes, end - start);
        }
    }

    /**
     * One connected pair over loopback with this baseline's transport: a server whose pipeline ends in
     * {@code reader}, and a client with its credits. Connecting is not timed by its users. Closing it
     * closes both channels and both event loop groups.
     *
     * <p>Threading: opened and closed by the sending thread, which writes the frames to {@link #client}.
     */
    static final class Link implements AutoCloseable {
        private final EventLoopGroup serverLoops;
        private final EventLoopGroup clientLoops;
        private final Channel server;
        final Channel client;
        final Credits credits;

        private Link(
                EventLoopGroup serverLoops,
                EventLoopGroup clientLoops,
                Channel server,
                Channel client,
                Credits credits) {
            this.serverLoops = serverLoops;
            this.clientLoops = clientLoops;
            this.server = server;
            this.client = client;
            this.credits = credits;
        }

        static Link open(int payloadBytes, int batchSize, int framesInFlight, Flush flush, MessageReader reader)
                throws InterruptedException {
            EventLoopGroup serverLoops = eventLoops();
            EventLoopGroup clientLoops = eventLoops();
            Credits credits = new Credits(credits(framesInFlight, batchSize, payloadBytes));
            try {
                Channel server = bind(
                        serverLoops,
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        batchSize,
                        payloadBytes,
                        flush,
                        reader);
                Channel client = connect(clientLoops, server.localAddress(), flush, credits);
                return new Link(serverLoops, clientLoops, server, client, credits);
            } catch (InterruptedException | RuntimeException | Error e) {
                shutDown(clientLoops, serverLoops); // closes whatever channel was opened on them
                throw e;
            }
        }

        /** Uninterruptible: an interrupted caller still leaves no event loop thread behind. */
        @Override
        public void close() {
            try {
                client.close().syncUninterruptibly();
                server.close().syncUninterruptibly();
            } finally {
                shutDown(clientLoops, serverLoops);
            }
        }

        private static void shutDown(EventLoopGroup clientLoops, EventLoopGroup serverLoops) {
            try {
                clientLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            } finally {
                serverLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    /**
     * The receiving half of {@link #run} on its own, for two processes (the emulated cluster's hosts): binds
     * {@code bind}, calls {@code bound} with the address it listens on, and returns {@link System#nanoTime}
     * at the first and at the last message read (one clock for every process of a Linux machine:
     * CLOCK_MONOTONIC).
     */
    public static Received receive(
            InetSocketAddress bind,
            int messages,
            int payloadBytes,
            int batchSize,
            Flush flush,
            java.util.function.Consumer<SocketAddress> bound)
            throws InterruptedException, TimeoutException {
        EventLoopGroup serverLoops = eventLoops();
        Receiver receiver = new Receiver(messages);
        try {
            Channel server = bind(serverLoops, bind, batchSize, payloadBytes, flush, receiver);
            bound.accept(server.localAddress());
            long end = receiver.awaitLast(messages, payloadBytes);
            server.close().sync();
            return new Received(receiver.firstNanos, end);
        } finally {
            serverLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** When the receiving end read its first and its last message, in {@link System#nanoTime}. */
    public record Received(long firstNanos, long lastNanos) {}

    /**
     * The sending half of {@link #run} on its own: connects to {@code server}, sends, and returns {@link
     * System#nanoTime} just before the first message was built.
     */
    public static long send(
            InetSocketAddress server, int messages, int payloadBytes, int batchSize, int framesInFlight, Flush flush)
            throws InterruptedException {
        EventLoopGroup clientLoops = eventLoops();
        Credits credits = new Credits(credits(framesInFlight, batchSize, payloadBytes));
        try {
            Channel client = connect(clientLoops, server, flush, credits);
            long start = System.nanoTime();
            send(client, credits, Payload.of(payloadBytes), messages, batchSize);
            // Every frame is written once its credit came back; the last ones leave before the close.
            while (credits.available.get() < credits.max && client.isActive()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            client.close().sync();
            return start;
        } finally {
            clientLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** ff-dist's transport: native epoll where it is available, else NIO. */
    private static EventLoopGroup eventLoops() {
        IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(EVENT_LOOP_THREADS, io);
    }

    /** The receiving end: listens at {@code address}; every connection's messages go to {@code reader}. */
    private static Channel bind(
            EventLoopGroup loops,
            InetSocketAddress address,
            int batchSize,
            int payloadBytes,
            Flush flush,
            MessageReader reader)
            throws InterruptedException {
        return new ServerBootstrap()
                .group(loops)
                .channel(Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(pipeline(maxFrameBytes(batchSize, payloadBytes), flush, () -> reader))
                .bind(address)
                .sync()
                .channel();
    }

    /** The sending end, connected to {@code server}; acknowledgements give {@code credits} back. */
    private static Channel connect(EventLoopGroup loops, SocketAddress server, Flush flush, Credits credits)
            throws InterruptedException {
        return new Bootstrap()
                .group(loops)
                .channel(Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(pipeline(LENGTH_BYTES + LENGTH_BYTES, flush, () -> credits))
                .connect(server)
                .sync()
                .channel();
    }

    /**
     * The frames the sender may have unacknowledged: {@code framesInFlight}, and no more than ff-dist's
     * sender would have with frames of this size under its byte window (it sends while fewer than {@link
     * GroupConfig#DEFAULT_MAX_BUFFERED_BYTES_PER_LINK} bytes are unacknowledged). The same flow control,
     * and 256 frames of 8 MiB (64 KiB at batch 128) are not queued in the sender's direct memory.
     */
    static int credits(int framesInFlight, int batchSize, int payloadBytes) {
        long frameBytes = (long) batchSize * (LENGTH_BYTES + payloadBytes);
        long byteWindow = GroupConfig.DEFAULT_MAX_BUFFERED_BYTES_PER_LINK;
        return (int) Math.min(framesInFlight, (byteWindow + frameBytes - 1) / frameBytes);
    }

    private static ChannelInitializer<Channel> pipeline(
            int maxFrameBytes, Flush flush, java.util.function.Supplier<ChannelInboundHandlerAdapter> last) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (flush == Flush.CONSOLIDATED) {
                    ch.pipeline().addLast(new FlushConsolidationHandler(CONSOLIDATED_FLUSHES, true));
                }
                ch.pipeline()
                        .addLast(new LengthFieldBasedFrameDecoder(maxFrameBytes + LENGTH_BYTES, 0, 4, 0, 4))
                        .addLast(last.get());
            }
        };
    }

    private static int maxFrameBytes(int batchSize, int payloadBytes) {
        return LENGTH_BYTES + batchSize * (LENGTH_BYTES + payloadBytes);
    }

    private static void send(Channel channel, Credits credits, byte[] payload, int messages, int batchSize) {
        for (int sent = 0; sent < messages; ) {
            int inFrame = Math.min(batchSize, messages - sent);
            ByteBuf frame = startFrame(channel, credits, inFrame, payload.length);
            for (int i = 0; i < inFrame; i++) {
                appendMessage(frame, payload);
            }
            channel.writeAndFlush(frame, channel.voidPromise());
            sent += inFrame;
        }
    }

    /**
     * Takes a credit (parks while there is none), then allocates one exactly sized frame for {@code
     * inFrame} messages of {@code payloadBytes} bytes and writes its length; the caller appends the
     * messages ({@link #appendMessage}) and writes and flushes it.
     */
    static ByteBuf startFrame(Channel channel, Credits credits, int inFrame, int payloadBytes) {
        int frameBytes = inFrame * (LENGTH_BYTES + payloadBytes);
        credits.take(channel);
        ByteBuf frame = channel.alloc().buffer(LENGTH_BYTES + frameBytes);
        frame.writeInt(frameBytes);
        return frame;
    }

    /** One message of a frame: its length, then a copy of its bytes (as a serializer does). */
    static void appendMessage(ByteBuf frame, byte[] payload) {
        frame.writeInt(payload.length);
        frame.writeBytes(payload);
    }

    /**
     * Server side: reads every message of a frame into its own array (as a deserializer must), hands it
     * to {@link #accept}, then acknowledges the frame; the acknowledgements of one socket read leave in
     * one flush.
     *
     * <p>Threading: the server's event loop.
     */
    abstract static class MessageReader extends ChannelInboundHandlerAdapter {
        @Override
        public final void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                while (frame.isReadable()) {
                    byte[] message = new byte[frame.readInt()];
                    frame.readBytes(message);
                    accept(message);
                }
            } finally {
                frame.release();
            }
            ctx.write(
                    ctx.alloc().buffer(2 * LENGTH_BYTES).writeInt(LENGTH_BYTES).writeInt(1), ctx.voidPromise());
            frameRead();
        }

        /** One message, read in full into an array of its own. */
        abstract void accept(byte[] message);

        /** After a frame's messages were accepted and its acknowledgement written. */
        void frameRead() {}

        @Override
        public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // After the last message the client may close with acknowledgements unread (a reset): harmless.
            // Before it, the run fails by timeout where it awaits the last message, naming how far it got.
            ctx.close();
        }

        /** After the last frame of one socket read. */
        void readComplete() {}

        @Override
        public final void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush(); // one flush for every acknowledgement of this read
            readComplete();
        }
    }

    /** Server side: counts every message and sums its first byte on the event loop itself. */
    private static final class Receiver extends MessageReader {
        private final int expected;
        private final CountDownLatch last = new CountDownLatch(1);
        /** Event loop only until {@link #last} opens; read by the caller after it. */
        private int received;
        /** Summed over every message's first byte, so the copies are observably used. */
        private long checksum;

        private long firstNanos;
        private long lastNanos;

        Receiver(int expected) {
            this.expected = expected;
        }

        @Override
        void accept(byte[] message) {
            checksum += message[0];
            if (received++ == 0) {
                firstNanos = System.nanoTime();
            }
        }

        @Override
        void frameRead() {
            if (received == expected) {
                lastNanos = System.nanoTime();
                last.countDown();
            }
        }

        long awaitLast(int messages, int payloadBytes) throws InterruptedException, TimeoutException {
            long timeoutSeconds = 60 + (long) messages * payloadBytes / 50_000_000L;
            if (!last.await(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new TimeoutException(
                        "plain Netty: " + received + " of " + expected + " messages after " + timeoutSeconds + " s");
            }
            if (checksum != (long) expected * Payload.FIRST_BYTE) {
                throw new IllegalStateException(
                        "plain Netty: the payloads read do not add up (checksum " + checksum + ")");
            }
            return lastNanos;
        }
    }

    /**
     * Client side: the sender's credits. The sender announces itself in {@link #waiter} before it
     * re-checks and parks, so an acknowledgement that races the park still wakes it (as ff-dist's
     * OutboundLink); the 1 ms park bound is only a safety net.
     */
    static final class Credits extends ChannelInboundHandlerAdapter {
        private final AtomicInteger available;
        private final int max;
        private volatile Thread waiter;

        Credits(int framesInFlight) {
            this.available = new AtomicInteger(framesInFlight);
            this.max = framesInFlight;
        }

        void take(Channel channel) {
            if (available.get() <= 0) {
                waiter = Thread.currentThread();
                while (available.get() <= 0) {
                    if (!channel.isActive()) {
                        throw new IllegalStateException("plain Netty: the connection closed while sending");
                    }
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                }
                waiter = null;
            }
            available.decrementAndGet(); // only this thread takes, so it cannot drop below zero meanwhile
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf ack = (ByteBuf) msg;
            try {
                available.addAndGet(ack.readInt());
            } finally {
                ack.release();
            }
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // see MessageReader.exceptionCaught
        }
    }
}
