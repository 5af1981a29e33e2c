package org.fastflowj.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for a test's groups to listen on later, in another process.
 *
 * <p>A port the kernel hands out for {@code bind(0)} lies in its ephemeral range, the same range every
 * outgoing connection (a peer's client socket, srun's I/O channels, an sshd session) takes its local port
 * from: between this test closing the probe socket and the group binding it, any of those may take the
 * port, and the group fails with "Address already in use". The ports here lie below that range, where no
 * connection is given a port unasked; each is probed free on loopback and never handed out twice by one JVM.
 */
public final class FreePorts {
    private static final int SPAN = 12_000;
    private static final int LOW = Math.max(1_024, ephemeralLow() - SPAN);
    private static final AtomicInteger NEXT =
            new AtomicInteger(ThreadLocalRandom.current().nextInt(SPAN));

    private FreePorts() {}

    /** A port nobody listens on, outside the ephemeral range, not handed out before by this JVM. */
    public static int next() {
        for (int tries = 0; tries < SPAN; tries++) {
            int port = LOW + Math.floorMod(NEXT.getAndIncrement(), SPAN);
            if (isFree(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + LOW + ".." + (LOW + SPAN - 1));
    }

    private static boolean isFree(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The low end of Linux's ephemeral range; 32768, its default, where that file cannot be read or
     * leaves too little room below it. */
    private static int ephemeralLow() {
        try {
            // Line by line: a read sized by the file's length (readString) may see one byte of a /proc file.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .get(0);
            int low = Integer.parseInt(range.trim().split("\\s+")[0]);
            return low > SPAN + 1_024 ? low : 32_768;
        } catch (IOException | RuntimeException unreadable) {
            return 32_768;
        }
    }
}
