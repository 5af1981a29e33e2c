package org.fastflowj.dist.net;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Fires {@link IdleStateEvent#WRITER_IDLE_STATE_EVENT} when nothing was written on the channel for the
 * heartbeat interval, so that {@link LinkHandler} sends a heartbeat: what Netty's {@code IdleStateHandler}
 * does for writer idleness, without its cost per write. That handler turns every write's void promise
 * into a real one and adds a listener to learn when the write completed; with batches of 8 small items
 * that was a third of the sending event loop's time ({@code NetThroughput}, 8 B at batch 8, JFR). Here a
 * write counts when it is made, not when it completes: a write stuck behind a full socket would hold a
 * heartbeat back as well, and the peer's reader timeout covers that case either way.
 *
 * <p>Threading: one instance per channel; every method runs on the channel's event loop (Netty calls a
 * handler's methods there, and the check is scheduled on it), so the fields are plain.
 */
final class WriterIdleTimer extends ChannelDuplexHandler {
    static final String NAME = "writer-idle";

    private final long intervalNanos;
    /** The event loop's clock, which its scheduled checks run on (set when the timer starts). */
    private Ticker ticker = Ticker.systemTicker();

    private long lastWriteNanos;
    private ScheduledFuture<?> check;

    WriterIdleTimer(long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("heartbeat interval must be positive: " + intervalMs + " ms");
        }
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        lastWriteNanos = ticker.nanoTime();
        ctx.write(msg, promise);
    }

    private void start(ChannelHandlerContext ctx) {
        if (check != null) {
            return;
        }
        ticker = ctx.executor().ticker();
        lastWriteNanos = ticker.nanoTime();
        schedule(ctx, intervalNanos);
    }

    private void stop() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> onCheck(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void onCheck(ChannelHandlerContext ctx) {
        if (check == null || !ctx.channel().isOpen()) {
            return; // stopped meanwhile
        }
        long now = ticker.nanoTime();
        long idleNanos = now - lastWriteNanos;
        if (idleNanos < intervalNanos) {
            schedule(ctx, intervalNanos - idleNanos);
            return;
        }
        // The next event comes a whole interval later unless the handler above writes (a heartbeat does).
        lastWriteNanos = now;
        schedule(ctx, intervalNanos);
        ctx.fireUserEventTriggered(IdleStateEvent.WRITER_IDLE_STATE_EVENT);
    }
}
