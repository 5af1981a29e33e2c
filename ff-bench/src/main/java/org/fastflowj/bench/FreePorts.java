package org.fastflowj.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for the groups a benchmark starts in its own JVM. */
public final class FreePorts {
    private FreePorts() {}

    /**
     * {@code count} distinct ports, free a moment ago: every socket stays bound until all are chosen, since
     * the OS may hand out a port it has just freed again. Another process could still take one before a
     * group binds it (the run then fails, naming the endpoint).
     */
    public static int[] take(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // a port we only looked at: nothing is lost
        }
    }
}
