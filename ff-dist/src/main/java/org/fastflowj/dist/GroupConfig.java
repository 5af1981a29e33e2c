package org.fastflowj.dist;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One group of a {@link DffConfig}: the process that runs it, where it listens and how its links
 * batch and throttle messages.
 *
 * <p>The tuning values ({@link #batchSize()}, {@link #messageOTF()}, {@link #internalMessageOTF()},
 * {@link #flushDelayMicros()}, {@link #maxBufferedBytesPerLink()}) are already effective: the group's
 * own value if it has one, else the config's top-level value, else the default.
 *
 * <p>Threading: immutable, safe to share.
 *
 * @param name the group name the program uses ({@code createGroup("G2")})
 * @param endpoint the {@code endpoint} string exactly as written in the config
 * @param host the endpoint's host, without IPv6 brackets
 * @param port the endpoint's port, 1..65535
 * @param launchHost the machine a launcher starts this group on ({@code host} key; default {@link #host()}), or
 *     {@code netns:NAME} for a network namespace of the launcher's machine ({@link #launchNamespace()})
 * @param batchSize messages packed into one network frame, or {@link #AUTO_BATCH_SIZE} ({@code "auto"}): sized by the
 *     observed rate, up to {@link #AUTO_MAX_BATCH_SIZE}
 * @param messageOTF un-acknowledged batches allowed in flight per connection to another group (default {@link
 *     #DEFAULT_MESSAGE_OTF}); their bytes are bounded too, by the receiving group's {@code maxBufferedBytesPerLink}
 * @param internalMessageOTF the same, for connections between groups of one all-to-all
 * @param flushDelayMicros the longest a partly filled batch waits before it is sent
 * @param maxBufferedBytesPerLink serialized bytes this group holds per incoming link, in batches and on
 *     local channels, before it stops reading from that peer
 * @param threadMapping CPU ids to pin this group's threads to, as written ("0,2,4"); empty for none
 * @param preCmd what the launcher writes in front of the group's command (FastFlow's preCmd)
 * @param jvmArgs extra JVM options for this group's process
 * @param tlsName the name this group's TLS certificate must carry ({@code tlsName} key); empty for the
 *     endpoint host, see {@link #tlsIdentity()}
 * @param line the 1-based line where this group's object starts in the config text (0 if built by hand)
 * @param column the 1-based column where this group's object starts
 * @param blocks the program's blocks this group takes ({@code blocks} key), when the config rather than the
 *     program's code makes the groups; empty for a group the program creates ({@code createGroup})
 */
public record GroupConfig(
        String name,
        String endpoint,
        String host,
        int port,
        String launchHost,
        int batchSize,
        int messageOTF,
        int internalMessageOTF,
        long flushDelayMicros,
        long maxBufferedBytesPerLink,
        String threadMapping,
        Optional<String> preCmd,
        List<String> jvmArgs,
        Optional<String> tlsName,
        int line,
        int column,
        Optional<BlockList> blocks) {

    /**
     * The {@code host} prefix of a group started in a network namespace of the launcher's own machine
     * ({@code "host": "netns:ffj1"}, started as {@code ip netns exec ffj1 COMMAND}).
     */
    public static final String NETNS_HOST_PREFIX = "netns:";

    /** {@code batchSize} for {@code "auto"}: each sender sizes its batches by the rate it observes. */
    public static final int AUTO_BATCH_SIZE = 0;
    /** The largest batch an {@code "auto"} sender builds: past it, a bigger frame bought nothing measurable. */
    public static final int AUTO_MAX_BATCH_SIZE = 512;

    /**
     * {@code messageOTF} and {@code internalMessageOTF} when the config gives none: 256 batches in flight per
     * connection. FastFlow's 64 keep only 256 KiB in flight with batches of 8 messages of 512 B, less than a
     * 1 Gbit/s link's bandwidth-delay product needs to stay busy; 256 keep such a link full ({@code LinkPeer}
     * on {@code ff-bench/cluster.sh}, Fig. 9, shows it). What 256 large batches could hold is bounded
     * by the byte window besides: a sender never has more than the receiving group's {@code
     * maxBufferedBytesPerLink} unacknowledged (plus the one batch that crosses it).
     */
    public static final int DEFAULT_MESSAGE_OTF = 256;

    /**
     * {@code maxBufferedBytesPerLink} when the config gives none: 32 MiB per link, which is also the byte
     * window of every sender to the group.
     */
    public static final long DEFAULT_MAX_BUFFERED_BYTES_PER_LINK = 32L << 20;

    public GroupConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(launchHost, "launchHost");
        Objects.requireNonNull(threadMapping, "threadMapping");
        Objects.requireNonNull(preCmd, "preCmd");
        jvmArgs = List.copyOf(jvmArgs);
        Objects.requireNonNull(tlsName, "tlsName");
        Objects.requireNonNull(blocks, "blocks");
    }

    /** The network namespace the launcher starts this group in ({@code "host": "netns:NAME"}); empty for a machine. */
    public Optional<String> launchNamespace() {
        return launchHost.startsWith(NETNS_HOST_PREFIX)
                ? Optional.of(launchHost.substring(NETNS_HOST_PREFIX.length()))
                : Optional.empty();
    }

    /** Whether this group's senders size their batches by the observed rate ({@code "batchSize": "auto"}). */
    public boolean adaptiveBatching() {
        return batchSize == AUTO_BATCH_SIZE;
    }

    /** The most messages one of this group's frames holds: {@link #batchSize()}, or the cap of {@code "auto"}. */
    public int maxBatchSize() {
        return adaptiveBatching() ? AUTO_MAX_BATCH_SIZE : batchSize;
    }

    /**
     * The name this group's TLS certificate must carry as subject CN or DNS/IP subject alternative name:
     * {@code tlsName} if given, else the endpoint host. Peers check it both ways, so a certificate from
     * the same CA issued for another group cannot pose as this one.
     */
    public String tlsIdentity() {
        return tlsName.orElse(host);
    }

    /**
     * The address this group listens on, <em>unresolved</em>: the name is looked up when a socket is
     * bound or connected, on the machine that does it, so reading a config never waits on DNS and
     * works where the other hosts' names are unknown.
     */
    public InetSocketAddress address() {
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** {@link #threadMapping()} as CPU ids, in order; empty when there is no mapping. */
    public List<Integer> threadMappingCpus() {
        if (threadMapping.isBlank()) {
            return List.of();
        }
        return Arrays.stream(threadMapping.split(","))
                .map(String::trim)
                .map(Integer::valueOf)
                .toList();
    }
}
