package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DuplexChannel;
import java.net.SocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One authenticated connection to another group, after its handshake. Data batches go from the
 * connecting side to the accepting side; credits and control messages come back on the same link.
 *
 * <p>Threading: {@link #send} and the other methods may be called from any thread. Frames sent from
 * one thread leave in the order they were sent; each frame is one write, so frames from several
 * threads never interleave byte-wise.
 */
public final class PeerLink {
    private final String peerGroup;
    private final boolean inbound;
    private final Channel channel;
    // Kept because a closed channel may no longer know it, and onClosed messages need it.
    private final SocketAddress remoteAddress;
    /** When reading was last turned off or on again (System.nanoTime); 0: it never was. */
    private volatile long readingToggledAtNanos;

    PeerLink(String peerGroup, boolean inbound, Channel channel) {
        this.peerGroup = peerGroup;
        this.inbound = inbound;
        this.channel = channel;
        this.remoteAddress = channel.remoteAddress();
    }

    public String peerGroup() {
        return peerGroup;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** True if the peer connected to us (it sends us data), false if we connected to it. */
    public boolean inbound() {
        return inbound;
    }

    /** The allocator to build payloads with, so they come from this channel's pool. */
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /**
     * Writes one application frame and flushes. Takes ownership of {@code payload} (Netty releases it
     * once written, or when the link is already closed). A write failure closes the link and reaches
     * {@link PeerHandler#onClosed}.
     */
    public void send(byte type, ByteBuf payload) {
        channel.writeAndFlush(frame(type, payload), channel.voidPromise());
    }

    /** Like {@link #send} but without a flush: for acknowledgements batched until {@link #flush()}. */
    public void sendAndFlushLater(byte type, ByteBuf payload) {
        channel.write(frame(type, payload), channel.voidPromise());
    }

    public void flush() {
        channel.flush();
    }

    /**
     * Bytes written to the link that the socket has not taken yet (Netty's outbound buffer, writes queued
     * from other threads included); 0 once closed.
     */
    public long unwrittenBytes() {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    /** False while Netty's outbound buffer is above its high-water mark: stop draining until true. */
    public boolean isWritable() {
        return channel.isWritable();
    }

    /**
     * Stops reading from the peer: what it sends waits in the sockets, and TCP slows it down. Its
     * heartbeats wait too, so the link is not declared dead for silence meanwhile (see {@link
     * #readingPausedWithin}). Call on the link's event loop.
     */
    public void pauseReading() {
        readingToggledAtNanos = System.nanoTime();
        channel.config().setAutoRead(false);
    }

    /** Reads from the peer again. Call on the link's event loop. */
    public void resumeReading() {
        channel.config().setAutoRead(true);
        readingToggledAtNanos = System.nanoTime();
    }

    /** Whether reading is paused, or was within the last {@code nanos}: the peer's silence proves nothing then. */
    boolean readingPausedWithin(long nanos) {
        long toggled = readingToggledAtNanos;
        return !channel.config().isAutoRead() || (toggled != 0 && System.nanoTime() - toggled < nanos);
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    /** Graceful: flushes what was written, then closes; the handler sees {@code onClosed(null)}. */
    public void close() {
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Closes after a last word (an ABORT): flushes, shuts the output down (FIN after the last frame), and
     * closes once the peer closed or after {@code lingerMs}. A plain close with bytes of the peer still
     * unread sends a reset, which can discard the last frame at either end before the peer reads it.
     * Reading goes on meanwhile, so nothing stays unread. Returns the channel's close future.
     */
    public ChannelFuture closeAfterLastWord(long lingerMs) {
        channel.config().setAutoRead(true);
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            if (flushed.isSuccess() && channel instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
                try {
                    channel.eventLoop().schedule(() -> channel.close(), lingerMs, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException shuttingDown) {
                    channel.close(); // the transport is closing: no time left to linger
                }
            } else {
                channel.close();
            }
        });
        return channel.closeFuture();
    }

    /** The underlying channel, for tests and diagnostics. */
    public Channel channel() {
        return channel;
    }

    @Override
    public String toString() {
        return "group " + peerGroup + " at " + Addresses.describe(remoteAddress);
    }

    private ByteBuf frame(byte type, ByteBuf payload) {
        if (!Frames.isApplicationType(type)) {
            payload.release();
            throw new IllegalArgumentException(
                    "frame type " + Frames.typeName(type) + " is reserved for the transport (use 0x10 and up)");
        }
        return Frames.encode(channel.alloc(), type, payload);
    }
}
