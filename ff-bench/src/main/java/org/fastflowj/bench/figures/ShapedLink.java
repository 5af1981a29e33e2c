package org.fastflowj.bench.figures;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.fastflowj.bench.net.LinkPeer;

/**
 * Transfers between two hosts of the emulated cluster ({@code ff-bench/cluster.sh up 2}): the receiver runs
 * in namespace PREFIX1 at {@value #SUBNET}1, the sender in PREFIX2, each a {@link LinkPeer} process started
 * with {@code ip netns exec}, so every byte crosses the two shaped veth links and the bridge.
 */
final class ShapedLink {
    /** The cluster's addresses, as cluster.sh gives them: host i is SUBNET + i. */
    static final String SUBNET = "10.213.0.";

    /** Put after a process's last line: it printed all it will. */
    private static final String END_OF_OUTPUT = "\u0000end of output";

    private final String prefix;
    private final long timeoutSeconds;
    private int nextPort = 21000;

    ShapedLink(String prefix, long timeoutSeconds) {
        this.prefix = prefix;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * One transfer: its payload rate, and the bytes the sending host put on its link per payload byte
     * (frames, TCP/IP headers and acknowledgements included), or NaN where the counter cannot be read. On a
     * saturated link two senders' rates can differ by at most the inverse ratio of those bytes. Also the
     * milliseconds from the sender's start to the first message read: a fixed cost of the transfer's start,
     * apart from the link's rate.
     */
    record Transfer(double megabytesPerSecond, double wireBytesPerPayloadByte, double firstMessageMillis) {}

    /** FF-J (Kryo), group R on host 1 and group S on host 2. */
    Transfer ffj(int messages, int bytes, int batch, int messageOTF) throws Exception {
        String s = SUBNET + "2:" + port();
        String r = SUBNET + "1:" + port();
        List<String> common = List.of(
                s,
                r,
                Integer.toString(messages),
                Integer.toString(bytes),
                Integer.toString(batch),
                Integer.toString(messageOTF));
        // As for Netty, the sender starts once the receiving group runs: a receiver still ending its warm-up
        // (compilations, a collection) when the first frame comes would be timed as part of the link's rate.
        return rate(messages, bytes, args("ffj-receive", common), args("ffj-send", common));
    }

    /** Plain Netty with consolidated flushes, receiver on host 1, sender on host 2. */
    Transfer netty(int messages, int bytes, int batch, int messageOTF) throws Exception {
        String port = Integer.toString(port());
        List<String> receiver = args(
                "netty-receive",
                List.of(
                        SUBNET + "1",
                        port,
                        Integer.toString(messages),
                        Integer.toString(bytes),
                        Integer.toString(batch)));
        List<String> sender = args(
                "netty-send",
                List.of(
                        SUBNET + "1",
                        port,
                        Integer.toString(messages),
                        Integer.toString(bytes),
                        Integer.toString(batch),
                        Integer.toString(messageOTF)));
        return rate(messages, bytes, receiver, sender);
    }

    private int port() {
        return nextPort++; // fresh namespaces: nothing else listens there
    }

    private static List<String> args(String mode, List<String> rest) {
        List<String> a = new ArrayList<>();
        a.add(mode);
        a.addAll(rest);
        return a;
    }

    private Transfer rate(int messages, int bytes, List<String> receiverArgs, List<String> senderArgs)
            throws Exception {
        Process receiver = null;
        Process sender = null;
        try {
            receiver = start(prefix + "1", receiverArgs);
            BlockingQueue<String> fromReceiver = lines(receiver);
            expect(fromReceiver, "listening", receiver, "receiver");
            long sentBefore = senderLinkBytes();
            sender = start(prefix + "2", senderArgs);
            BlockingQueue<String> fromSender = lines(sender);
            long start = Long.parseLong(
                    expect(fromSender, "start ", sender, "sender").substring(6).trim());
            long first = Long.parseLong(expect(fromReceiver, "first ", receiver, "receiver")
                    .substring(6)
                    .trim());
            long end = Long.parseLong(expect(fromReceiver, "end ", receiver, "receiver")
                    .substring(4)
                    .trim());
            long sent = senderLinkBytes() - sentBefore;
            double payload = (double) messages * bytes;
            return new Transfer(
                    payload / 1e6 / ((end - start) / 1e9),
                    sentBefore < 0 || sent < 0 ? Double.NaN : sent / payload,
                    (first - start) / 1e6);
        } finally {
            if (sender != null) {
                sender.destroyForcibly();
            }
            if (receiver != null) {
                receiver.destroyForcibly();
            }
        }
    }

    /**
     * Bytes host 2 (the sender) has sent, counted where its veth enters the bridge in this namespace (the
     * root side of the pair: what it receives is what the host sent), or -1 if that counter is not there.
     */
    private long senderLinkBytes() {
        Path counter = Path.of("/sys/class/net", prefix + "v2", "statistics", "rx_bytes");
        try {
            return Long.parseLong(Files.readString(counter).trim());
        } catch (IOException | NumberFormatException unreadable) {
            return -1;
        }
    }

    private Process start(String namespace, List<String> peerArgs) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // A fixed heap: G1 shrinks a growable one after the warm-up's System.gc(), and its service thread then
        // uncommits memory in the timed transfer's first milliseconds, on a core the start needs (perf sched).
        command.add("-Xms1g");
        command.add("-Xmx1g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LinkPeer.class.getName());
        command.addAll(peerArgs);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Every line the process prints, read on a daemon thread that ends with the process's output. */
    private static BlockingQueue<String> lines(Process process) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("(output lost: " + e + ")");
                    }
                    lines.add(END_OF_OUTPUT);
                },
                "link-peer-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** The first line starting with {@code prefix}; every other line printed meanwhile is kept for the error. */
    private String expect(BlockingQueue<String> lines, String prefixWanted, Process process, String who)
            throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IllegalStateException("shaped link: the " + who + " printed no '" + prefixWanted.trim()
                        + "' line in " + timeoutSeconds + " s (alive: " + process.isAlive() + "); it printed: " + seen);
            }
            if (line.equals(END_OF_OUTPUT)) {
                throw new IllegalStateException("shaped link: the " + who + " ended without a '" + prefixWanted.trim()
                        + "' line; it printed: " + seen);
            }
            if (line.startsWith(prefixWanted)) {
                return line;
            }
            seen.append(line).append('\n');
        }
    }
}
