package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.fastflowj.dist.testing.NettyLeaks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frames of every size, big ones sliced out of the reads they arrived in: whatever the reads' sizes and
 * however long the frames are kept, each frame reads back as sent, every read is released once its
 * frames are, a frame holds no more than its bound ({@link FrameDecoder#extractFrame}), and the leak
 * detector (paranoid in ff-dist's tests) finds nothing.
 */
@Timeout(60)
class BigFramesAcrossReadsTest {
    private static final int MAX_FRAME_BYTES = 1 << 20;
    private static final int MAX_READ_BYTES = 64 * 1024;
    private static final byte[] KEY = Handshake.frameKey(new byte[] {1, 2, 3}, new byte[16], new byte[16], true);
    private static final byte DATA = 0x10;

    @Test
    void shouldHandOnEveryFrameAsSentAndReleaseEveryReadOnceItsFramesAre() {
        for (long seed = 1; seed <= 6; seed++) {
            List<byte[]> payloads = payloads(new Random(seed), 60);
            deliver(payloads, wire(payloads, false), new Random(seed), false);
        }
        assertThat(NettyLeaks.collect()).isEmpty();
    }

    @Test
    void shouldAuthenticateBigFramesOnSealedLinks() {
        for (long seed = 11; seed <= 13; seed++) {
            List<byte[]> payloads = payloads(new Random(seed), 30);
            deliver(payloads, wire(payloads, true), new Random(seed), true);
        }
        assertThat(NettyLeaks.collect()).isEmpty();
    }

    @Test
    void shouldHoldAtMostTwiceABigFrameAndTheReadsAtItsEnds() {
        Random random = new Random(5);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            payloads.add(bytes(random, 200 * 1024 + random.nextInt(300 * 1024)));
        }
        byte[] stream = wire(payloads, false);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES));
        List<ByteBuf> reads = new ArrayList<>();
        int frames = 0;
        for (int fed = 0; fed < stream.length; ) {
            // reads from a few bytes to a full buffer, in buffers of the largest read's capacity
            int piece =
                    Math.min(stream.length - fed, random.nextInt(4) != 0 ? 1 + random.nextInt(100) : MAX_READ_BYTES);
            ByteBuf read = Unpooled.directBuffer(MAX_READ_BYTES, MAX_READ_BYTES).writeBytes(stream, fed, piece);
            reads.add(read.retain()); // our reference, to see when the decoder lets go of it
            fed += piece;
            channel.writeInbound(read);
            for (ByteBuf frame; (frame = channel.readInbound()) != null; frames++) {
                long held = reads.stream()
                        .filter(r -> r.refCnt() > 1)
                        .mapToLong(ByteBuf::capacity)
                        .sum();
                assertThat(held)
                        .as("capacity held while frame %d (%d bytes) is alive", frames, frame.readableBytes())
                        .isLessThanOrEqualTo(2L * frame.readableBytes() + 2L * MAX_READ_BYTES);
                assertThat(frame.readByte()).isEqualTo(DATA);
                byte[] body = new byte[frame.readableBytes()];
                frame.readBytes(body);
                assertThat(body).isEqualTo(payloads.get(frames));
                frame.release();
            }
        }
        assertThat(frames).isEqualTo(payloads.size());
        assertThat(channel.finish()).isFalse();
        for (ByteBuf read : reads) {
            assertThat(read.refCnt()).as("only our reference is left").isEqualTo(1);
            read.release();
        }
        assertThat(NettyLeaks.collect()).isEmpty();
    }

    /**
     * Frames a little above the heap-copy limit, each arriving in a read that fills a sixteenth of its
     * buffer: alone, or split over such a read and a full one. The frames, all kept alive, hold none of
     * those sparse buffers: whatever they hold adds up to at most twice their bytes, plus the read the
     * decoder is cutting frames from.
     */
    @Test
    void shouldNotLetFramesOfAFewKilobytesHoldSparseReads() {
        int payloadBytes = FrameDecoder.HEAP_FRAME_MAX_BYTES + 1024;
        int frameBytes = Frames.LENGTH_BYTES + 1 + payloadBytes;
        Random random = new Random(9);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            payloads.add(bytes(random, payloadBytes));
        }
        byte[] stream = wire(payloads, false);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES));
        List<ByteBuf> reads = new ArrayList<>();
        List<ByteBuf> live = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            int at = i * frameBytes;
            if (i % 2 == 0) {
                feed(channel, reads, stream, at, frameBytes, 16 * frameBytes);
            } else {
                int head = frameBytes / 2;
                feed(channel, reads, stream, at, head, 16 * frameBytes);
                feed(channel, reads, stream, at + head, frameBytes - head, frameBytes - head);
            }
            ByteBuf frame = channel.readInbound();
            byte[] body = new byte[frame.readableBytes() - 1];
            frame.getBytes(frame.readerIndex() + 1, body);
            assertThat(body).as("frame %d", i).isEqualTo(payloads.get(i));
            live.add(frame);
            long held = reads.stream()
                    .filter(r -> r.refCnt() > 1)
                    .mapToLong(ByteBuf::capacity)
                    .sum();
            assertThat(held)
                    .as("capacity held while %d frames of %d bytes each are alive", live.size(), frameBytes)
                    .isLessThanOrEqualTo(2L * live.size() * frameBytes + 16L * frameBytes);
        }
        live.forEach(ByteBuf::release);
        assertThat(channel.finish()).isFalse();
        for (ByteBuf read : reads) {
            assertThat(read.refCnt()).as("only our reference is left").isEqualTo(1);
            read.release();
        }
        assertThat(NettyLeaks.collect()).isEmpty();
    }

    /** One read of {@code stream[from, from + length)} in a direct buffer of {@code capacity}. */
    private static void feed(
            EmbeddedChannel channel, List<ByteBuf> reads, byte[] stream, int from, int length, int capacity) {
        ByteBuf read = Unpooled.directBuffer(capacity, capacity).writeBytes(stream, from, length);
        reads.add(read.retain()); // our reference, to see when the decoder lets go of it
        channel.writeInbound(read);
    }

    /**
     * Feeds the stream in reads of random sizes (mostly full 64 KiB buffers, sometimes a few bytes in a
     * big buffer) and checks each frame; frames are kept a while before release, as a receiver thread
     * does, so the decoder goes on while slices of its cumulation are alive.
     */
    private static void deliver(List<byte[]> payloads, byte[] stream, Random random, boolean sealed) {
        ChannelHandler[] handlers = sealed
                ? new ChannelHandler[] {new FrameDecoder(MAX_FRAME_BYTES), new FrameOpener(KEY, "group P")}
                : new ChannelHandler[] {new FrameDecoder(MAX_FRAME_BYTES)};
        EmbeddedChannel channel = new EmbeddedChannel(handlers);
        List<ByteBuf> reads = new ArrayList<>();
        Deque<ByteBuf> kept = new ArrayDeque<>();
        int frames = 0;
        for (int fed = 0; fed < stream.length; ) {
            int piece = Math.min(stream.length - fed, readSize(random));
            int capacity = random.nextInt(4) == 0 ? MAX_READ_BYTES : piece;
            ByteBuf read = Unpooled.directBuffer(capacity, capacity).writeBytes(stream, fed, piece);
            reads.add(read.retain());
            fed += piece;
            channel.writeInbound(read);
            for (ByteBuf frame; (frame = channel.readInbound()) != null; frames++) {
                assertThat(frame.getByte(frame.readerIndex())).isEqualTo(DATA);
                byte[] body = new byte[frame.readableBytes() - 1];
                frame.getBytes(frame.readerIndex() + 1, body);
                assertThat(body).as("frame %d", frames).isEqualTo(payloads.get(frames));
                kept.add(frame);
                while (kept.size() > random.nextInt(4)) {
                    kept.poll().release();
                }
            }
        }
        kept.forEach(ByteBuf::release);
        assertThat(frames).isEqualTo(payloads.size());
        assertThat(channel.finish()).isFalse();
        for (ByteBuf read : reads) {
            assertThat(read.refCnt()).as("only our reference is left").isEqualTo(1);
            read.release();
        }
    }

    private static int readSize(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 1 + random.nextInt(8);
            case 1 -> 1 + random.nextInt(MAX_READ_BYTES);
            default -> MAX_READ_BYTES;
        };
    }

    /** Payloads around the heap-copy limit, far below and far above it. */
    private static List<byte[]> payloads(Random random, int count) {
        List<byte[]> payloads = new ArrayList<>();
        int limit = FrameDecoder.HEAP_FRAME_MAX_BYTES;
        for (int i = 0; i < count; i++) {
            int size =
                    switch (random.nextInt(6)) {
                        case 0 -> random.nextInt(64);
                        case 1 -> random.nextInt(4096);
                        case 2 -> limit - 2 + random.nextInt(4); // frame length (payload + type) around the limit
                        case 3 -> limit + random.nextInt(64 * 1024);
                        default -> 128 * 1024 + random.nextInt(MAX_FRAME_BYTES - 128 * 1024 - 64);
                    };
            payloads.add(bytes(random, size));
        }
        return payloads;
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The frames as they go on the wire, sealed (each followed by its MAC frame) or not. */
    private static byte[] wire(List<byte[]> payloads, boolean sealed) {
        EmbeddedChannel sender = sealed ? new EmbeddedChannel(new FrameSealer(KEY)) : new EmbeddedChannel();
        ByteBuf out = Unpooled.buffer();
        for (byte[] payload : payloads) {
            sender.writeOutbound(Frames.encode(sender.alloc(), DATA, Unpooled.wrappedBuffer(payload)));
            for (ByteBuf frame; (frame = sender.readOutbound()) != null; ) {
                out.writeBytes(frame);
                frame.release();
            }
        }
        sender.finishAndReleaseAll();
        byte[] stream = new byte[out.readableBytes()];
        out.readBytes(stream);
        out.release();
        return stream;
    }
}
