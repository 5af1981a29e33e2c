package org.fastflowj.dist.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Starts transports on ephemeral loopback ports and closes them all after each test. */
final class TransportFixture implements AutoCloseable {
    static final long FINGERPRINT = 0x5eed_f00dL;

    private final List<Transport> started = new ArrayList<>();

    static WireSettings settings(String group) {
        return WireSettings.defaults(group, FINGERPRINT).withTimeouts(3_000, 3_000);
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    Transport start(WireSettings settings, Set<String> allowedInbound, PeerHandler handler) {
        return start(settings, loopback(0), allowedInbound, handler);
    }

    Transport start(WireSettings settings, InetSocketAddress address, Set<String> allowed, PeerHandler handler) {
        Transport transport = Transport.start(settings, address, allowed, handler);
        started.add(transport);
        return transport;
    }

    /** A port nobody listens on: bound to learn a free one, then closed again. */
    static int freePort() throws IOException {
        return org.fastflowj.testing.FreePorts.next();
    }

    @Override
    public void close() {
        started.forEach(Transport::close);
    }
}
