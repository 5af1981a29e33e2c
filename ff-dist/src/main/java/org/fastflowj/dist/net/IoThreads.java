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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.runtime.control.FatalErrors;

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
        if (!shuttingDown(group.get())) {
            FatalErrors.halt(
                    "event loop " + Thread.currentThread().getName(),
                    new InternalError("the event loop stopped while its transport was open (see the log above)"));
        }
    }

    /**
     * Whether the group is shutting down. A loop told to shut down first may end before the group reads as
     * shutting down (once every loop was told, a moment later): so a loop that ended waits that moment.
     */
    private static boolean shuttingDown(EventLoopGroup group) {
        if (group == null) {
            return true; // the group failed to start: nothing runs on it
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!group.isShuttingDown() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return group.isShuttingDown();
    }
}
