package org.fastflowj.dist.net;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Socket addresses as people write them in config files: {@code host:port}, without Java's slash. */
final class Addresses {
    private Addresses() {}

    static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            // The IP when known: unambiguous, and what the peer's logs show for us too.
            String host = inet.isUnresolved()
                    ? inet.getHostString()
                    : inet.getAddress().getHostAddress();
            return host + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
