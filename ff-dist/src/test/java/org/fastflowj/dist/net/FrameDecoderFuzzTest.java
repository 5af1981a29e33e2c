package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Arbitrary bytes, arriving in arbitrary pieces, through the {@link FrameDecoder}: every frame it hands
 * on is exactly a frame of the stream (length prefix and body reassemble the bytes read), no frame is
 * empty or above the limit, no buffer is sized by a length the stream announced, and anything else fails with Netty's frame exceptions, never another one.
 *
 * <p>In a normal build this replays the inputs in {@code FrameDecoderFuzzTestInputs/}; {@code fuzz.sh}
 * fuzzes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrameDecoderFuzzTest {
    /** Small, so that the fuzzer's inputs (a few KiB) reach the limit. */
    private static final int MAX_FRAME_BYTES = 64;

    @FuzzTest(maxDuration = "5m")
    void shouldReassembleTheStreamOrFailWithAFrameException(FuzzedDataProvider data) {
        int pieceBytes = data.consumeInt(1, 97);
        byte[] stream = data.consumeRemainingAsBytes();
        var frames = new FrameCollector();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES), frames);
        var allocation = new LargestAllocation();
        channel.config().setAllocator(allocation);
        int fed = 0;
        try {
            while (fed < stream.length && frames.failure == null) {
                int piece = Math.min(pieceBytes, stream.length - fed);
                channel.writeInbound(Unpooled.copiedBuffer(stream, fed, piece));
                fed += piece;
            }
            channel.close();
        } finally {
            channel.finishAndReleaseAll();
        }
        // A frame at the limit, its length field and one read more, doubled as the accumulated bytes grow.
        assertThat(allocation.largestBytes())
                .as("largest buffer allocated")
                .isLessThanOrEqualTo(2 * (MAX_FRAME_BYTES + Integer.BYTES + pieceBytes));

        byte[] reassembled = frames.stream.toByteArray();
        assertThat(reassembled).as("frames are the stream's prefix").isEqualTo(slice(stream, reassembled.length));
        if (frames.failure == null) {
            int leftover = stream.length - reassembled.length;
            assertThat(leftover).as("bytes of a frame still incomplete").isLessThan(4 + MAX_FRAME_BYTES);
            if (leftover > 0) {
                assertThat(frames.closedMidFrame).isEqualTo(leftover);
            }
        } else {
            assertThat(frames.failure).isInstanceOfAny(TooLongFrameException.class, CorruptedFrameException.class);
        }
    }

    private static byte[] slice(byte[] bytes, int length) {
        byte[] prefix = new byte[Math.min(length, bytes.length)];
        System.arraycopy(bytes, 0, prefix, 0, prefix.length);
        return prefix;
    }

    /** Rebuilds the wire form of every frame handed on, and records the first exception. */
    private static final class FrameCollector extends ChannelInboundHandlerAdapter {
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();
        Throwable failure;
        int closedMidFrame;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                int length = frame.readableBytes();
                assertThat(length).isBetween(1, MAX_FRAME_BYTES);
                stream.writeBytes(
                        new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length
                        });
                stream.writeBytes(ByteBufUtil.getBytes(frame));
            } finally {
                frame.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            String prefix = "connection closed in the middle of a frame (";
            if (failure == null
                    && cause.getMessage() != null
                    && cause.getMessage().startsWith(prefix)) {
                String count = cause.getMessage().substring(prefix.length()).split(" ")[0];
                closedMidFrame = Integer.parseInt(count);
            } else if (failure == null) {
                failure = cause;
            }
        }
    }
}
