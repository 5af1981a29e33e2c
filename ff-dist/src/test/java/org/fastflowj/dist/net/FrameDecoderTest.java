package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FrameDecoderTest {
    private static final int MAX = 1024;

    @Test
    void shouldSplitTheStreamIntoFramesStartingWithTheType() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
        ByteBuf frame = Frames.encode(channel.alloc(), (byte) 0x10, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        ByteBuf heartbeat = Frames.encodeEmpty(channel.alloc(), Frames.HEARTBEAT);

        channel.writeInbound(Unpooled.wrappedBuffer(frame, heartbeat));

        ByteBuf first = channel.readInbound();
        assertThat(first.readByte()).isEqualTo((byte) 0x10);
        assertThat(first.readableBytes()).isEqualTo(3);
        first.release();
        ByteBuf second = channel.readInbound();
        assertThat(second.readByte()).isEqualTo(Frames.HEARTBEAT);
        assertThat(second.isReadable()).isFalse();
        second.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void shouldNameATlsRecordReceivedBeforeTheHandshake() {
        // the alert a TLS server answers a plain HELLO with: content type 21, version 3.3, length 2
        byte[] alert = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28};
        EmbeddedChannel plain = new EmbeddedChannel(FrameDecoder.beforeHandshake(1 << 20));
        assertThatThrownBy(() -> plain.writeInbound(Unpooled.wrappedBuffer(alert)))
                .isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("it uses TLS and this group does not");
        plain.finishAndReleaseAll();

        // a TLS client's ClientHello: content type 22, version 3.1
        byte[] hello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01};
        EmbeddedChannel server = new EmbeddedChannel(FrameDecoder.beforeHandshake(1 << 20));
        assertThatThrownBy(() -> server.writeInbound(Unpooled.wrappedBuffer(hello)))
                .hasMessageContaining("it uses TLS and this group does not");
        server.finishAndReleaseAll();
    }

    @Test
    void shouldCutAFrameOverAFewKiBBeforeTheHandshakeAndAcceptItOnceTheLinkIsOpen() {
        int big = FrameDecoder.HANDSHAKE_MAX_FRAME_BYTES + 1;
        EmbeddedChannel stranger = new EmbeddedChannel(FrameDecoder.beforeHandshake(1 << 20));
        ByteBuf tooBig = Frames.encode(stranger.alloc(), Frames.HELLO, Unpooled.wrappedBuffer(new byte[big]));
        assertThatThrownBy(() -> stranger.writeInbound(tooBig))
                .isInstanceOf(TooLongFrameException.class)
                .hasMessage("frame of " + (big + 1) + " bytes before the handshake completed (at most "
                        + FrameDecoder.HANDSHAKE_MAX_FRAME_BYTES + " bytes are accepted until then)");
        stranger.finishAndReleaseAll();

        FrameDecoder decoder = FrameDecoder.beforeHandshake(1 << 20);
        EmbeddedChannel peer = new EmbeddedChannel(decoder);
        decoder.openLink();
        peer.writeInbound(Frames.encode(peer.alloc(), (byte) 0x10, Unpooled.wrappedBuffer(new byte[big])));
        ByteBuf frame = peer.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(big + 1);
        frame.release();
        assertThat(peer.finish()).isFalse();
    }

    @Test
    void shouldCopyASmallFrameToTheHeapAndSliceABigOneOutOfTheReadsWithoutACopy() {
        int big = FrameDecoder.HEAP_FRAME_MAX_BYTES + 100;
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(2 * big));
        ByteBuf small = Frames.encode(channel.alloc(), (byte) 0x10, Unpooled.wrappedBuffer(new byte[] {4, 5}));
        byte[] bigPayload = new byte[big];
        new Random(7).nextBytes(bigPayload);
        ByteBuf large = Frames.encode(channel.alloc(), (byte) 0x10, Unpooled.wrappedBuffer(bigPayload));
        ByteBuf received = Unpooled.buffer().writeBytes(small).writeBytes(large);
        small.release();
        large.release();
        // the second frame arrives in two reads: the first read ends inside it
        int half = received.readableBytes() / 2;
        ByteBuf firstRead = Unpooled.directBuffer(half, half).writeBytes(received, half);
        int rest = received.readableBytes();
        ByteBuf secondRead = Unpooled.directBuffer(rest, rest).writeBytes(received);
        received.release();

        channel.writeInbound(firstRead);
        ByteBuf smallFrame = channel.readInbound();
        channel.writeInbound(secondRead);
        ByteBuf largeFrame = channel.readInbound();

        assertThat(smallFrame.hasArray())
                .as("a small frame is handed on in heap memory")
                .isTrue();
        assertThat(smallFrame.readableBytes()).isEqualTo(3);
        smallFrame.release();
        assertThat(firstRead.refCnt())
                .as("the big frame holds the reads it came in: its bytes were not copied")
                .isPositive();
        assertThat(secondRead.refCnt()).isPositive();
        assertThat(largeFrame.readByte()).isEqualTo((byte) 0x10);
        byte[] body = new byte[largeFrame.readableBytes()];
        largeFrame.readBytes(body);
        assertThat(body).isEqualTo(bigPayload);
        largeFrame.release();
        assertThat(channel.finish()).isFalse();
        assertThat(firstRead.refCnt()).as("released with the frame").isZero();
        assertThat(secondRead.refCnt()).isZero();
    }

    @Test
    void shouldWriteTheHeaderInPlaceWhenThePayloadLeftRoomForIt() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
        ByteBuf payload = channel.alloc().heapBuffer(16);
        payload.writerIndex(Frames.HEADER_BYTES).readerIndex(Frames.HEADER_BYTES);
        payload.writeBytes(new byte[] {7, 8, 9, 10});

        ByteBuf frame = Frames.encode(channel.alloc(), (byte) 0x11, payload);

        assertThat(frame).isSameAs(payload); // no composite, no second buffer
        assertThat(frame.readableBytes()).isEqualTo(Frames.HEADER_BYTES + 4);
        channel.writeInbound(frame);
        ByteBuf decoded = channel.readInbound();
        assertThat(decoded.readByte()).isEqualTo((byte) 0x11);
        byte[] body = new byte[decoded.readableBytes()];
        decoded.readBytes(body);
        assertThat(body).containsExactly(7, 8, 9, 10);
        decoded.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void shouldFailFastOnALengthAboveTheLimit() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));

        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeInt(MAX + 1)))
                .isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldAcceptALengthExactlyAtTheLimit() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
        ByteBuf frame = Unpooled.buffer().writeInt(MAX).writeByte(0x10).writeZero(MAX - 1);

        channel.writeInbound(frame);

        ByteBuf decoded = channel.readInbound();
        assertThat(decoded.readableBytes()).isEqualTo(MAX);
        decoded.release();
    }

    @Test
    void shouldRejectNegativeAndZeroLengths() {
        // Netty reads the 4-byte length unsigned: a negative one is simply far too long.
        EmbeddedChannel negative = new EmbeddedChannel(new FrameDecoder(MAX));
        assertThatThrownBy(() -> negative.writeInbound(Unpooled.buffer().writeInt(-1)))
                .isInstanceOf(TooLongFrameException.class);
        negative.finishAndReleaseAll();

        EmbeddedChannel zero = new EmbeddedChannel(new FrameDecoder(MAX));
        assertThatThrownBy(() -> zero.writeInbound(Unpooled.buffer().writeInt(0)))
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessageContaining("length 0");
        zero.finishAndReleaseAll();
    }

    @Test
    void shouldHandOnNothingAfterAZeroLengthFrameAlsoWhenTheChannelCloses() {
        List<Object> frames = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX), collector(frames));
        ByteBuf heartbeat = Frames.encodeEmpty(channel.alloc(), Frames.HEARTBEAT);
        ByteBuf after = Frames.encode(channel.alloc(), (byte) 0x10, Unpooled.wrappedBuffer(new byte[] {1, 2}));

        channel.writeInbound(Unpooled.wrappedBuffer(heartbeat, Unpooled.buffer().writeInt(0), after));
        channel.writeInbound(Frames.encodeEmpty(channel.alloc(), Frames.HEARTBEAT));
        channel.close();

        assertThat(frames).containsExactly("frame HEARTBEAT", CorruptedFrameException.class.getSimpleName());
    }

    @Test
    void shouldHandOnNothingAfterATooLongFrameOnceItsAnnouncedLengthIsSkipped() {
        List<Object> frames = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX), collector(frames));
        ByteBuf tooLong = Unpooled.buffer().writeInt(MAX + 1).writeZero(MAX + 1);

        channel.writeInbound(tooLong);
        channel.writeInbound(Frames.encodeEmpty(channel.alloc(), Frames.HEARTBEAT));
        channel.close();

        assertThat(frames).containsExactly(TooLongFrameException.class.getSimpleName());
    }

    /** Records "frame 0x.." per frame (releasing it) and the simple name of each exception. */
    private static ChannelInboundHandlerAdapter collector(List<Object> events) {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf frame = (ByteBuf) msg;
                events.add("frame " + Frames.typeName(frame.getByte(frame.readerIndex())));
                frame.release();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                events.add(cause.getClass().getSimpleName());
            }
        };
    }

    @Test
    void shouldReportAStreamThatEndsInsideAFrameBeforeTheChannelGoesInactive() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX), new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                events.add("exception: " + cause.getMessage());
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                events.add("inactive");
            }
        });
        channel.writeInbound(Unpooled.buffer().writeInt(100).writeByte(0x10).writeZero(10));

        channel.close();

        assertThat(events)
                .containsExactly(
                        "exception: connection closed in the middle of a frame (15 bytes of it received)", "inactive");
    }
}
