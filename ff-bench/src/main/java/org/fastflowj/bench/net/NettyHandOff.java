package org.fastflowj.bench.net;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fastflowj.bench.net.NettyBaseline.Flush;
import org.fastflowj.bench.net.NettyBaseline.Link;
import org.fastflowj.bench.net.NettyBaseline.MessageReader;
import org.fastflowj.bench.queue.SpscHandOff;

/**
 * A bound for {@link NetThroughput}: consolidated plain Netty ({@link NettyBaseline}'s link, framing,
 * credits and byte window), fed by a source thread and drained into a sink thread through one {@link
 * SpscHandOff} each, the least any design pays whose source and sink are nodes on threads of their own.
 *
 * <pre>
 *   [source thread: payload × N] ─SPSC(2048)─▶ [sending thread: credit? frame of batchSize × (len, payload),
 *   writeAndFlush] ──TCP──▶ [server event loop: per message new byte[len] + copy] ─SPSC(2048)─▶ [sink thread:
 *   count, sum first bytes]                  ACK per frame ◀── (after its messages are in the sink's queue)
 * </pre>
 *
 * <p>The event loop waits while the sink's queue is full (see {@link SpscHandOff}), before it acknowledges
 * the frame: the sink's pace then holds back the credits and the socket, as the receiving node's pace
 * does in ff-dist. It is acceptable here because this event loop serves this one connection only, and
 * the wait is bounded: it ends with an error when the sink gives up. The clock runs from the source's
 * first item to the sink's last.
 *
 * <p>Threading: {@link #run} blocks its caller, which is the sending thread, and starts the source and
 * the sink threads.
 */
final class NettyHandOff {
    /**
     * The waiting scheme: PARK, which leaves the cores to the busy threads of a bound that has more
     * threads than cores; {@code -Dff.bench.handOffWait=BACKOFF} runs the other.
     */
    static final SpscHandOff.Wait WAIT =
            SpscHandOff.Wait.valueOf(System.getProperty("ff.bench.handOffWait", SpscHandOff.Wait.PARK.name()));

    private static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(5);

    private NettyHandOff() {}

    static Transfer run(int messages, int payloadBytes, int batchSize, int framesInFlight)
            throws InterruptedException, TimeoutException {
        return run(messages, payloadBytes, batchSize, framesInFlight, WAIT);
    }

    static Transfer run(int messages, int payloadBytes, int batchSize, int framesInFlight, SpscHandOff.Wait wait)
            throws InterruptedException, TimeoutException {
        SpscHandOff<byte[]> toSender = new SpscHandOff<>("hand-off source → sending thread", wait);
        SpscHandOff<byte[]> toSink = new SpscHandOff<>("hand-off event loop → sink", wait);
        Source source = new Source(toSender, Payload.of(payloadBytes), messages);
        Sink sink = new Sink(toSink, messages);
        Thread sourceThread = new Thread(source, "hand-off-source");
        Thread sinkThread = new Thread(sink, "hand-off-sink");
        sourceThread.setDaemon(true); // a thread that failed to end in time must not keep the JVM alive
        sinkThread.setDaemon(true);
        Link link = Link.open(payloadBytes, batchSize, framesInFlight, Flush.CONSOLIDATED, new Forwarder(toSink));
        try {
            sinkThread.start();
            sourceThread.start();
            send(link, toSender, messages, payloadBytes, batchSize);
            long end = sink.awaitLast(messages, payloadBytes);
            return new Transfer(sink.received, payloadBytes, end - source.startNanos);
        } finally {
            // Before the link closes: an event loop still waiting for the sink's queue would hold up the close.
            // A no-op for the threads that are done; ends the waits of the others.
            toSender.abandon();
            toSink.abandon();
            try {
                link.close();
            } finally {
                sourceThread.join(JOIN_MILLIS);
                sinkThread.join(JOIN_MILLIS);
            }
        }
    }

    /** The sending thread: the consolidated baseline's loop, each message taken from the source's queue. */
    private static void send(Link link, SpscHandOff<byte[]> in, int messages, int payloadBytes, int batchSize) {
        for (int sent = 0; sent < messages; ) {
            int inFrame = Math.min(batchSize, messages - sent);
            ByteBuf frame = NettyBaseline.startFrame(link.client, link.credits, inFrame, payloadBytes);
            for (int i = 0; i < inFrame; i++) {
                NettyBaseline.appendMessage(frame, in.take());
            }
            link.client.writeAndFlush(frame, link.client.voidPromise());
            sent += inFrame;
        }
    }

    /** Offers the same payload array N times. */
    private static final class Source implements Runnable {
        private final SpscHandOff<byte[]> out;
        private final byte[] payload;
        private final int messages;
        /** Written before the first item is put; read by the sending thread after its last item was taken. */
        volatile long startNanos;

        Source(SpscHandOff<byte[]> out, byte[] payload, int messages) {
            this.out = out;
            this.payload = payload;
            this.messages = messages;
        }

        @Override
        public void run() {
            startNanos = System.nanoTime();
            try {
                for (int i = 0; i < messages; i++) {
                    out.put(payload);
                }
                out.wakeConsumerNow();
            } catch (RuntimeException | Error e) {
                out.abandon(); // the sending thread fails instead of waiting for items that never come
                throw e;
            }
        }
    }

    /** The server's event loop: every message read goes to the sink's queue. */
    private static final class Forwarder extends MessageReader {
        private final SpscHandOff<byte[]> toSink;

        Forwarder(SpscHandOff<byte[]> toSink) {
            this.toSink = toSink;
        }

        @Override
        void accept(byte[] message) {
            toSink.put(message);
        }

        @Override
        void readComplete() {
            toSink.wakeConsumerNow(); // the end of a burst: nothing more comes before the next socket read
        }
    }

    /** Counts the messages and sums their first bytes, on a thread of its own. */
    private static final class Sink implements Runnable {
        private final SpscHandOff<byte[]> in;
        private final int expected;
        private final CountDownLatch last = new CountDownLatch(1);
        /** Sink thread only until {@link #last} opens; read by the caller after it. */
        private int received;

        private long checksum;
        private long lastNanos;

        Sink(SpscHandOff<byte[]> in, int expected) {
            this.in = in;
            this.expected = expected;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; i < expected; i++) {
                    checksum += in.take()[0];
                    received++;
                }
            } catch (RuntimeException | Error e) {
                in.abandon(); // the event loop fails instead of waiting for room that never comes
                throw e;
            }
            lastNanos = System.nanoTime();
            last.countDown();
        }

        long awaitLast(int messages, int payloadBytes) throws InterruptedException, TimeoutException {
            long timeoutSeconds = 60 + (long) messages * payloadBytes / 50_000_000L;
            if (!last.await(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new TimeoutException("Netty via hand-offs: the sink took " + received + " of " + expected
                        + " messages in " + timeoutSeconds + " s");
            }
            if (checksum != (long) expected * Payload.FIRST_BYTE) {
                throw new IllegalStateException(
                        "Netty via hand-offs: the payloads the sink took do not add up (checksum " + checksum + ")");
            }
            return lastNanos;
        }
    }
}
