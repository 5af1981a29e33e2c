package org.fastflowj.dist.net;

import io.netty.channel.embedded.EmbeddedChannel;

/** Links over an {@link EmbeddedChannel}, for tests of the run layer's link ends without sockets. */
public final class TestLinks {
    private TestLinks() {}

    /**
     * A link to {@code peerGroup} whose frames go to {@code channel}'s outbound queue ({@link
     * EmbeddedChannel#readOutbound()}); {@code inbound}: the peer connected to us.
     */
    public static PeerLink embedded(String peerGroup, boolean inbound, EmbeddedChannel channel) {
        return new PeerLink(peerGroup, inbound, channel);
    }
}
