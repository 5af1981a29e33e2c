package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.net.SocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records what the transport reports, copying and releasing every payload at once. */
final class RecordingPeerHandler implements PeerHandler {
    record Frame(PeerLink link, byte type, byte[] payload, int refCntAfterRelease) {}

    record Closed(PeerLink link, Throwable cause) {}

    record Refused(SocketAddress remote, String reason) {}

    final BlockingQueue<PeerLink> opened = new LinkedBlockingQueue<>();
    final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    final BlockingQueue<Closed> closed = new LinkedBlockingQueue<>();
    final BlockingQueue<Refused> refused = new LinkedBlockingQueue<>();

    @Override
    public void onOpen(PeerLink link) {
        opened.add(link);
    }

    @Override
    public void onFrame(PeerLink link, byte type, ByteBuf payload) {
        byte[] bytes = ByteBufUtil.getBytes(payload);
        payload.release();
        frames.add(new Frame(link, type, bytes, payload.refCnt()));
    }

    @Override
    public void onClosed(PeerLink link, Throwable causeOrNull) {
        closed.add(new Closed(link, causeOrNull));
    }

    @Override
    public void onRefused(SocketAddress remote, String reason) {
        refused.add(new Refused(remote, reason));
    }

    static <T> T next(BlockingQueue<T> queue) throws InterruptedException {
        T item = queue.poll(10, TimeUnit.SECONDS);
        if (item == null) {
            throw new AssertionError("nothing reported within 10 s");
        }
        return item;
    }
}
