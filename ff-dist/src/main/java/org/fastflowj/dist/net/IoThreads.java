package org.fastflowj.dist.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.fastflowj.core.runtime.FatalErrors;

/**
 * The event loops of one transport and the matching channel classes: native epoll where it loads,
 * else NIO. Two threads are plenty, because they only frame, shake hands and hand off; the work is on
 * node threads.
 *
 * <p>Threading: immutable after construction.
 */
record IoThreads(
        EventLoopGroup group,
        Class<? extends ServerChannel> serverChannelClass,
        Class<? extends SocketChannel> socketChannelClass) {

    static final int THREADS = 2;

    static IoThreads create(String localGroup) {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        AtomicReference<EventLoopGroup> self = new AtomicReference<>();
        var group = new MultiThreadIoEventLoopGroup(THREADS, threadFactory(localGroup, self), io);
        self.set(group);
        return epoll
                ? new IoThreads(group, EpollServerSocketChannel.class, EpollSocketChannel.class)
                : new IoThreads(group, NioServerSocketChannel.class, NioSocketChannel.class);
    }

    /** "ff-dist-io-G2-1": a thread dump shows which group's transport a thread belongs to. */
    private static ThreadFactory threadFactory(String localGroup, AtomicReference<EventLoopGroup> group) {
        AtomicInteger counter = new AtomicInteger();
        return task -> {
            Thread thread = new FastThreadLocalThread(
                    () -> runGuarded(task, group), "ff-dist-io-" + localGroup + "-" + counter.incrementAndGet());
            // Daemon, so a transport somebody forgot to close cannot keep the JVM alive after main ends.
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Runs an event loop. An event loop only ends when its group shuts down; one that ends otherwise died
     * of an {@link Error} Netty let through (it logs it, then stops the loop), and its connections would
     * hang for ever: the JVM halts instead ({@link FatalErrors}).
     */
    private static void runGuarded(Runnable loop, AtomicReference<EventLoopGroup> group) {
        try {
            loop.run();
        } catch (Throwable t) {
            FatalErrors.halt("event loop " + Thread.currentThread().getName(), t);
        }
        EventLoopGroup g = group.get();
        if (g != null && !g.isShuttingDown()) {
            FatalErrors.halt(
                    "event loop " + Thread.currentThread().getName(),
                    new InternalError("the event loop stopped while its transport was open (see the log above)"));
        }
    }
}
