package org.fastflowj.dist.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;

/**
 * A stranger on a group's port that speaks the wire protocol: reads the CHALLENGE, sends a HELLO of
 * its choosing, and keeps every byte the group sent it, so a test can check what leaked.
 */
final class WireStranger implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();

    WireStranger(InetSocketAddress address) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
    }

    /** One frame, as type byte then payload; throws EOFException if the group closed first. */
    byte[] readFrame() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        received.write(length >>> 24);
        received.write(length >>> 16);
        received.write(length >>> 8);
        received.write(length);
        received.write(frame);
        return frame;
    }

    /** Reads the CHALLENGE and returns the server's nonce. */
    byte[] challenge() throws IOException {
        byte[] frame = readFrame();
        if (frame[0] != Frames.CHALLENGE) {
            throw new IOException("expected a CHALLENGE, got " + Frames.typeName(frame[0]));
        }
        return java.util.Arrays.copyOfRange(frame, 1, frame.length);
    }

    /** Sends a HELLO with a zero proof (the stranger does not know any secret). */
    void hello(String from, String to, long fingerprint) throws IOException {
        var hello = new Handshake.Hello(from, to, fingerprint, Handshake.newNonce(), new byte[Handshake.PROOF_BYTES]);
        ByteBuf frame = Handshake.hello(ByteBufAllocator.DEFAULT, hello);
        try {
            write(ByteBufUtil.getBytes(frame));
        } finally {
            frame.release();
        }
    }

    void write(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** The REFUSE's reason, after which the group must close. */
    String refusal() throws IOException {
        byte[] frame = readFrame();
        if (frame[0] != Frames.REFUSE) {
            throw new IOException("expected a REFUSE, got " + Frames.typeName(frame[0]));
        }
        return new String(frame, 3, frame.length - 3, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** True if the group closes the connection (reads end) before sending anything more. */
    boolean closedByPeer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException e) {
            return true; // reset: closed too
        }
    }

    /** Everything the group sent, length fields included. */
    byte[] receivedBytes() {
        return received.toByteArray();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
