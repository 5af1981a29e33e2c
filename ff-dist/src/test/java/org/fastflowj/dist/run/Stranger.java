package org.fastflowj.dist.run;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * A stranger who speaks the wire protocol from its description (docs/distributed.md, Handshake's
 * Javadoc) but knows no secret: it reads the CHALLENGE, sends a HELLO with a zero proof, and returns
 * every byte the group sent it until it closed.
 */
final class Stranger {
    private static final int MAGIC = 0x46464A31;
    private static final byte HELLO = 0x02;

    private Stranger() {}

    static byte[] helloAndRead(String host, int port, String from, String to, long fingerprint) throws IOException {
        try (Socket socket = connect(host, port)) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[in.readInt()]); // the CHALLENGE
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] hello = hello(from, to, fingerprint);
            out.writeInt(1 + hello.length);
            out.writeByte(HELLO);
            out.write(hello);
            out.flush();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketException | EOFException e) {
                // reset after the REFUSE: what was read is all there is
            }
            return received.toByteArray();
        }
    }

    /** Retries while the group is not listening yet. */
    private static Socket connect(String host, int port) throws IOException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 1_000);
                return socket;
            } catch (IOException e) {
                socket.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static byte[] hello(String from, String to, long fingerprint) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeShort(1);
        writeUtf(out, from);
        writeUtf(out, to);
        out.writeLong(fingerprint);
        out.write(new byte[16]); // client nonce
        out.write(new byte[32]); // the proof it cannot compute
        return bytes.toByteArray();
    }

    private static void writeUtf(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeShort(utf8.length);
        out.write(utf8);
    }

    static byte[] longBytes(long value) {
        byte[] bytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (value >>> (56 - 8 * i));
        }
        return bytes;
    }
}
