package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.TestLinks;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.serial.ItemCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's barrier crosses a group boundary as EOS does: a sender takes it from its input and sends
 * it for that edge, and the receiver puts it on the edge's channel after the items before it and before
 * those after it, waiting for room as for an item when the channel is full. The bridges' neighbours are
 * bridge tasks that offer and note barriers ({@link BridgeChain}): a node takes a barrier only in a
 * run with checkpoints.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BarriersAcrossBridgesTest {
    private static final int EDGE = 0;
    private static final long CHECKPOINT = 42;
    private static final SerializationConfig SERIALIZATION = SerializationConfig.defaults();
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final List<Transport> transports = new ArrayList<>();
    private final List<Execution> executions = new ArrayList<>();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Execution execution : executions) {
            if (!execution.isDone()) {
                execution.cancel();
                execution.await(10, TimeUnit.SECONDS);
            }
        }
        transports.forEach(Transport::close);
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    @Test
    void receiverShouldPutTheBarrierBetweenItsItemsWhileItsChannelIsFull() throws Exception {
        boolean barrierWaited = false;
        for (int before = 0; before <= 12; before++) {
            barrierWaited |= receiveBarrierAfter(before, 12);
        }
        assertThat(barrierWaited)
                .as("in some round the barrier itself found the channel full")
                .isTrue();
    }

    /**
     * Items, the barrier, more items and the edge's end reach a receiver whose consumer takes nothing until
     * the receiver waits for room; then every value must come out once, in order. Whether it was the
     * barrier that waited.
     */
    private boolean receiveBarrierAfter(int before, int after) throws Exception {
        InboundLink in = new InboundLink("B", "A", 256, 1L << 30);
        in.onOpen(TestLinks.embedded("A", true, embedded()));
        List<String> expected = new ArrayList<>();
        for (ByteBuf batch : batchesOf(before, after, expected)) {
            in.onBatch(batch);
        }
        ReceiverTask receiver = new ReceiverTask(
                in, new int[] {EDGE}, new int[0], new boolean[1], new boolean[1], 30_000, 1, SERIALIZATION);
        BridgeChain.Noting consumer = new BridgeChain.Noting();
        consumer.open = false;
        Execution execution =
                start(BridgeChain.of(receiver, consumer), RunOptions.defaults().queueCapacity(4));

        awaitTrue(receiver::waitsForRoom, "the receiver waits for room on its full channel");
        boolean barrierWaited = receiver.barrierWaitsForRoom();
        assertThat(consumer.events).isEmpty();
        consumer.open = true;

        assertThat(execution.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(consumer.events).as("%d items before the barrier", before).containsExactlyElementsOf(expected);
        return barrierWaited;
    }

    /** The batches (of 4 messages) a sender writes for {@code before} items, the barrier, {@code after} items, EOS. */
    private List<ByteBuf> batchesOf(int before, int after, List<String> expected) {
        EmbeddedChannel wire = embedded();
        OutboundLink out = new OutboundLink("A", "B", 256, 1L << 30, new int[] {EDGE}, new int[0]);
        out.open(TestLinks.embedded("B", false, wire));
        BatchWriter writer = new BatchWriter(out, new ItemCodec(SERIALIZATION), new BatchSizer(4, 100_000), 1 << 20);
        for (long i = 0; i < before + after; i++) {
            if (i == before) {
                writer.barrier(EDGE, CHECKPOINT);
                expected.add("barrier " + CHECKPOINT);
                flushIfFull(writer);
            }
            writer.item(i, EDGE);
            expected.add("item " + i);
            flushIfFull(writer);
        }
        writer.mark(Frames.EOS, EDGE);
        expected.add("ended");
        assertThat(writer.flush()).isTrue();
        List<ByteBuf> batches = new ArrayList<>();
        for (ByteBuf frame; (frame = wire.readOutbound()) != null; ) {
            frame.skipBytes(Frames.HEADER_BYTES);
            batches.add(frame);
        }
        return batches;
    }

    private static void flushIfFull(BatchWriter writer) {
        if (writer.isFull()) {
            assertThat(writer.flush()).as("credits enough for every batch").isTrue();
        }
    }

    @Test
    void barriersShouldCrossFromASenderToAReceiverInPlaceAmongTheEdgesItems() throws Exception {
        List<Object> script = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (long i = 0; i < 500; i++) {
            if (i % 50 == 49) {
                script.add(new CheckpointBarrier(i / 50));
                expected.add("barrier " + i / 50);
            }
            script.add(i);
            expected.add("item " + i);
        }
        expected.add("ended");
        BridgeChain.Noting consumer = new BridgeChain.Noting();
        OutboundLink out = connectedLinks(consumer);
        // Batches far larger than the stream: only the barriers, the idle flushes and the end send one.
        SenderTask sender = new SenderTask(
                out, new int[] {EDGE}, new int[0], new int[] {0}, 10_000, 1_000_000, 1 << 20, SERIALIZATION);
        Execution sending = start(BridgeChain.of(new BridgeChain.Offering(script), sender), RunOptions.defaults());

        assertThat(sending.await(20, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> executions.get(0).isDone(), "the receiving group's run ended");
        executions.get(0).await();
        assertThat(consumer.events).containsExactlyElementsOf(expected);
        assertThat(out.stats().messages())
                .as("items, barriers and the end, each a message")
                .isEqualTo(script.size() + 1);
    }

    /**
     * Group B's run, a receiver ahead of {@code consumer}, listening; and the link from group A to it, its
     * acknowledgements read.
     */
    private OutboundLink connectedLinks(BridgeChain.Noting consumer) {
        InboundLink in = new InboundLink("B", "A", 256, 1L << 30);
        transports.add(Transport.start(WireSettings.defaults("B", 42), LOOPBACK, Set.of("A"), new Handler() {
            @Override
            public void onOpen(PeerLink l) {
                in.onOpen(l);
            }

            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                if (type == Frames.BATCH) {
                    in.onBatch(payload);
                } else {
                    payload.release();
                }
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {
                in.onClosed(cause);
            }
        }));
        ReceiverTask receiver = new ReceiverTask(
                in, new int[] {EDGE}, new int[0], new boolean[1], new boolean[1], 30_000, 64, SERIALIZATION);
        start(BridgeChain.of(receiver, consumer), RunOptions.defaults());

        OutboundLink out = new OutboundLink("A", "B", 256, 1L << 30, new int[] {EDGE}, new int[0]);
        Transport sending = Transport.start(WireSettings.defaults("A", 42), LOOPBACK, Set.of(), new Handler() {
            @Override
            public void onFrame(PeerLink l, byte type, ByteBuf payload) {
                try {
                    if (type == Frames.ACK) {
                        out.onAck(payload.readInt(), payload.readLong());
                    }
                } finally {
                    payload.release();
                }
            }

            @Override
            public void onClosed(PeerLink l, Throwable cause) {
                out.onClosed(cause);
            }
        });
        transports.add(sending);
        out.open(sending.connect("B", transports.get(0).boundAddress()));
        return out;
    }

    private Execution start(org.fastflowj.core.graph.Graph graph, RunOptions options) {
        Execution execution = Executor.start(graph, options);
        executions.add(execution);
        return execution;
    }

    private EmbeddedChannel embedded() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channels.add(channel);
        return channel;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(1);
        }
    }

    private abstract static class Handler implements PeerHandler {
        @Override
        public void onOpen(PeerLink l) {}

        @Override
        public void onClosed(PeerLink l, Throwable cause) {}
    }
}
