package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WriterIdleTimerTest {
    private static final long INTERVAL_MS = 1_000;

    private final List<IdleState> events = new ArrayList<>();
    private EmbeddedChannel channel;

    @BeforeEach
    void openChannel() {
        channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new WriterIdleTimer(INTERVAL_MS), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                events.add(((IdleStateEvent) evt).state());
            }
        });
    }

    private void advanceMs(long ms) {
        channel.advanceTimeBy(ms, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    private void write() {
        channel.writeOutbound(Unpooled.wrappedBuffer(new byte[] {1}));
        channel.releaseOutbound();
    }

    @Test
    void shouldReportWriterIdleOncePerIntervalWithoutWrites() {
        advanceMs(INTERVAL_MS - 1);
        assertThat(events).isEmpty();

        advanceMs(1);
        assertThat(events).containsExactly(IdleState.WRITER_IDLE);

        advanceMs(INTERVAL_MS);
        assertThat(events).containsExactly(IdleState.WRITER_IDLE, IdleState.WRITER_IDLE);
    }

    @Test
    void shouldStayQuietWhileWritesComeWithinTheInterval() {
        for (int i = 0; i < 10; i++) {
            advanceMs(INTERVAL_MS / 2);
            write();
        }
        assertThat(events).isEmpty();

        advanceMs(INTERVAL_MS - 1);
        assertThat(events)
                .as("a whole interval after the last write, not before")
                .isEmpty();
        advanceMs(1);
        assertThat(events).containsExactly(IdleState.WRITER_IDLE);
    }

    @Test
    void shouldPassAVoidPromiseOnUntouched() {
        List<Boolean> voidPromises = new ArrayList<>();
        channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                voidPromises.add(promise.isVoid());
                ctx.write(msg, promise);
            }
        });

        channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {7}), channel.voidPromise());

        assertThat(voidPromises)
                .as("no promise and listener per write (Netty's IdleStateHandler makes one to time writer idleness)")
                .containsExactly(true);
        channel.releaseOutbound();
    }

    @Test
    void shouldStopOnceTheChannelCloses() {
        channel.close();
        advanceMs(5 * INTERVAL_MS);
        assertThat(events).isEmpty();
    }
}
