package org.fastflowj.dist.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy for one connection that forwards both ways until told to {@link #pause()}: then
 * it keeps both connections open but drops every byte, which is what a silently dead link looks like.
 * It can also flip one bit of the client-to-server stream ({@link #corruptUpstreamByte}), which is what
 * an on-path attacker's injection looks like to the receiver. Or it can forward the client-to-server
 * stream slowly ({@link #throttleUpstream}), which is what a slow or congested link looks like.
 */
public final class PausableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean forwarding = true;
    private volatile long corruptUpstreamAt = -1;
    private volatile int upstreamSliceBytes;
    private volatile long upstreamSliceMillis;

    public PausableProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptOne, "test-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    void pause() {
        forwarding = false;
    }

    /** Forwards what the client sends {@code sliceBytes} at a time, one slice every {@code sliceMillis}. */
    public void throttleUpstream(int sliceBytes, long sliceMillis) {
        upstreamSliceMillis = sliceMillis;
        upstreamSliceBytes = sliceBytes;
    }

    /** Flips the lowest bit of the byte at {@code offset} (from 0) of what the client sends. */
    void corruptUpstreamByte(long offset) {
        corruptUpstreamAt = offset;
    }

    private void acceptOne() {
        try {
            Socket client = listener.accept();
            Socket server = new Socket(target.getAddress(), target.getPort());
            sockets.add(client);
            sockets.add(server);
            pump(client, server, "test-proxy-up", true);
            pump(server, client, "test-proxy-down", false);
        } catch (IOException e) {
            // closed by the test
        }
    }

    private void pump(Socket from, Socket to, String name, boolean upstream) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    long position = 0;
                    try (InputStream in = from.getInputStream()) {
                        OutputStream out = to.getOutputStream();
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            long corruptAt = corruptUpstreamAt;
                            if (upstream && corruptAt >= position && corruptAt < position + n) {
                                buffer[(int) (corruptAt - position)] ^= 1;
                            }
                            position += n;
                            if (forwarding) {
                                forward(out, buffer, n, upstream);
                            }
                        }
                    } catch (IOException e) {
                        // one side closed
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
    }

    private void forward(OutputStream out, byte[] buffer, int n, boolean upstream) throws IOException {
        int slice = upstreamSliceBytes;
        if (!upstream || slice <= 0) {
            out.write(buffer, 0, n);
            return;
        }
        for (int from = 0; from < n; from += slice) {
            out.write(buffer, from, Math.min(slice, n - from));
            out.flush();
            try {
                Thread.sleep(upstreamSliceMillis); // the link's rate, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
