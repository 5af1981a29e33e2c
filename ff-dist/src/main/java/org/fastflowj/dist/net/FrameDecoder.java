package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.List;

/**
 * Cuts the byte stream into frames and hands each one on as a buffer that starts with the type byte.
 * The length is checked before anything is allocated: more than {@code maxFrameBytes}, negative or
 * zero fails the connection at once ({@code failFast}), so a stranger's bytes cannot make us allocate
 * gigabytes. A connection that ends inside a frame is reported as corrupt rather than as a clean close.
 *
 * <p>Threading: one instance per channel, used on its event loop only (not {@code @Sharable}).
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    FrameDecoder(int maxFrameBytes) {
        // The limit Netty checks includes the 4-byte length field itself; strip that field.
        super(maxFrameBytes + 4, 0, 4, 0, 4, true);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        Object frame = super.decode(ctx, in);
        if (frame instanceof ByteBuf buf && !buf.isReadable()) {
            buf.release();
            throw new CorruptedFrameException("frame of length 0 (every frame has at least a type byte)");
        }
        return frame;
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            // Fired here, not thrown: a throw would only surface after channelInactive has reported a
            // clean close.
            int leftover = in.readableBytes();
            in.skipBytes(leftover);
            ctx.fireExceptionCaught(new CorruptedFrameException(
                    "connection closed in the middle of a frame (" + leftover + " bytes of it received)"));
        }
    }
}
