package org.fastflowj.bench.net;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.run.GroupRun;

/**
 * One end of a {@link NetThroughput} transfer as a process of its own, for two hosts of the emulated cluster
 * ({@code ff-bench/cluster.sh}): each end prints lines with {@link System#nanoTime} (CLOCK_MONOTONIC, one
 * clock for every process of a Linux machine, namespaces included), from which the driver takes the rate and
 * the time to the first message.
 *
 * <pre>
 *   LinkPeer netty-receive BIND_HOST PORT MESSAGES BYTES BATCH     prints "listening", then "first NANOS", "end NANOS"
 *   LinkPeer netty-send    HOST PORT MESSAGES BYTES BATCH OTF      prints "start NANOS"
 *   LinkPeer ffj-receive   S_ENDPOINT R_ENDPOINT MESSAGES BYTES BATCH OTF   group R: the same as netty-receive
 *   LinkPeer ffj-send      S_ENDPOINT R_ENDPOINT MESSAGES BYTES BATCH OTF   group S: prints "start NANOS"
 * </pre>
 *
 * Plain Netty sends with consolidated flushes, the like-for-like channel of ff-dist; FF-J uses Kryo, and its
 * groups run {@code insecure} (no secret, so no per-frame MAC, as the baseline).
 *
 * <p>Before its measured transfer each end runs {@value #WARM_UP_PROPERTY} messages (default {@value
 * #DEFAULT_WARM_UP_MESSAGES}; 0: none) of the same variant on its own loopback, both ends in its JVM, in
 * {@value #WARM_UP_ROUNDS} transfers, so the JIT has compiled both ends' paths before the link is timed, as
 * {@link NetThroughput}'s warm-up rounds do on loopback. Without it a transfer of two seconds at 512 B spends a good part of them in
 * interpreted and C1 code, and measures the warm-up instead of the link.
 */
public final class LinkPeer {
    /** System property: messages of the loopback warm-up each end runs first. */
    static final String WARM_UP_PROPERTY = "ff.bench.linkWarmUpMessages";

    static final int DEFAULT_WARM_UP_MESSAGES = 200_000;

    /**
     * The warm-up's messages go in this many transfers. The end of a transfer (event loops shutting down)
     * and the start of the next (a new group's handshake) take branches the JIT has not seen: after a single
     * warm-up transfer they deoptimize the hot Netty and ff-dist methods just as the timed transfer begins,
     * which then runs in C1 code while C2 compiles them again ({@code -XX:+PrintCompilation}).
     */
    static final int WARM_UP_ROUNDS = 4;

    private LinkPeer() {}

    /** The loopback transfers each end runs before its measured one (results dropped). */
    private static void warmUp(boolean ffj, int payloadBytes, int batchSize, int messageOTF) throws Exception {
        int messages = Integer.getInteger(WARM_UP_PROPERTY, DEFAULT_WARM_UP_MESSAGES);
        if (messages <= 0) {
            return;
        }
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            int share = Math.max(1, messages / WARM_UP_ROUNDS);
            if (ffj) {
                GroupToGroup.run(share, payloadBytes, batchSize, messageOTF, GroupToGroup.Serialization.KRYO);
            } else {
                NettyBaseline.run(share, payloadBytes, batchSize, messageOTF, NettyBaseline.Flush.CONSOLIDATED);
            }
        }
        System.gc();
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "";
        switch (mode) {
            case "netty-receive" -> {
                // The receiver is not told the sender's credits; any count compiles the same paths.
                warmUp(false, Integer.parseInt(args[4]), Integer.parseInt(args[5]), 64);
                NettyBaseline.Received received = NettyBaseline.receive(
                        new InetSocketAddress(args[1], Integer.parseInt(args[2])),
                        Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]),
                        Integer.parseInt(args[5]),
                        NettyBaseline.Flush.CONSOLIDATED,
                        address -> {
                            System.out.println("listening " + address);
                            System.out.flush();
                        });
                System.out.println("first " + received.firstNanos());
                System.out.println("end " + received.lastNanos());
            }
            case "netty-send" -> {
                warmUp(false, Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
                System.out.println("start "
                        + NettyBaseline.send(
                                new InetSocketAddress(args[1], Integer.parseInt(args[2])),
                                Integer.parseInt(args[3]),
                                Integer.parseInt(args[4]),
                                Integer.parseInt(args[5]),
                                Integer.parseInt(args[6]),
                                NettyBaseline.Flush.CONSOLIDATED));
            }
            case "ffj-receive", "ffj-send" -> runGroup(mode.equals("ffj-send"), args);
            default -> {
                System.err.println(
                        "LinkPeer: unknown mode '" + mode + "' (netty-receive, netty-send, ffj-receive, ffj-send)");
                System.exit(2);
            }
        }
        System.out.flush();
    }

    private static void runGroup(boolean sender, String[] args) throws Exception {
        String senderEndpoint = args[1];
        String receiverEndpoint = args[2];
        int messages = Integer.parseInt(args[3]);
        int payloadBytes = Integer.parseInt(args[4]);
        int batchSize = Integer.parseInt(args[5]);
        int messageOTF = Integer.parseInt(args[6]);
        warmUp(true, payloadBytes, batchSize, messageOTF);
        GroupToGroup.Source source = new GroupToGroup.Source(Payload.of(payloadBytes), messages);
        GroupToGroup.Sink sink = new GroupToGroup.Sink();
        Pipeline program = new Pipeline(source, sink);
        source.createGroup(GroupToGroup.SENDER_GROUP);
        sink.createGroup(GroupToGroup.RECEIVER_GROUP);
        // The emulated cluster is a private bridge of this machine: unauthenticated, so that frames are not
        // sealed and the comparison with plain Netty (no MAC either) stays like for like.
        String json = "{ \"insecure\": true, \"batchSize\": " + batchSize + ", \"messageOTF\": " + messageOTF
                + ", \"groups\": [\n"
                + "  { \"name\": \"" + GroupToGroup.SENDER_GROUP + "\", \"endpoint\": \"" + senderEndpoint + "\" },\n"
                + "  { \"name\": \"" + GroupToGroup.RECEIVER_GROUP + "\", \"endpoint\": \"" + receiverEndpoint
                + "\" } ] }";
        DffConfig config = DffConfig.parse(json, "link-peer.json");
        String group = sender ? GroupToGroup.SENDER_GROUP : GroupToGroup.RECEIVER_GROUP;
        Execution execution = GroupRun.start(
                GraphCompiler.compile(program),
                RunOptions.defaults(),
                new DFF.Settings(group, config, GroupToGroup.Serialization.KRYO.config(), false));
        long timeoutSeconds = 120 + (long) messages * payloadBytes / 10_000_000L;
        if (!sender) {
            System.out.println("listening " + receiverEndpoint);
            System.out.flush();
        }
        if (!execution.await(timeoutSeconds, TimeUnit.SECONDS)) {
            execution.cancel();
            throw new IllegalStateException("group " + group + " did not end in " + timeoutSeconds + " s");
        }
        if (sender) {
            System.out.println("start " + source.startNanos);
        } else {
            if (sink.received != messages || sink.checksum != (long) messages * Payload.FIRST_BYTE) {
                throw new IllegalStateException("group R read " + sink.received + " of " + messages + " messages");
            }
            System.out.println("first " + sink.firstNanos);
            System.out.println("end " + sink.endNanos);
        }
    }
}
