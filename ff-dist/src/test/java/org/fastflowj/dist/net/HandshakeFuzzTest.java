package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * A stranger's arbitrary bytes, in arbitrary pieces, against each side of the handshake behind the real
 * {@link FrameDecoder}. Whatever arrives, nothing is thrown out of the pipeline, every buffer is released
 * (leak detector at paranoid), no buffer is sized beyond the frame limit, the side reports its outcome
 * exactly once when the connection ends, and with a secret no link ever opens (the fuzzer cannot know the
 * secret).
 *
 * <p>The first input byte picks the secret (odd: one), the second the size of the pieces. In a normal build
 * this replays the inputs in {@code HandshakeFuzzTestInputs/}; {@code fuzz.sh} fuzzes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandshakeFuzzTest {
    static final String LOCAL = "G1";
    static final String PEER = "G0";
    static final long FINGERPRINT = 0x0123456789abcdefL;
    private static final byte[] SECRET = "fuzz-secret".getBytes(StandardCharsets.UTF_8);

    @FuzzTest(maxDuration = "5m")
    void shouldRefuseOrWelcomeTheClientExactlyOnce(FuzzedDataProvider data) {
        boolean withSecret = (data.consumeByte() & 1) == 1;
        int pieceBytes = data.consumeInt(1, 200);
        byte[] stream = data.consumeRemainingAsBytes();
        var handler = new RecordingPeerHandler();
        var server = new ServerHandshakeHandler(
                settings(withSecret),
                handler,
                Set.of(PEER, "G2"),
                new ConcurrentHashMap<>(),
                new HandshakeAdmission(LOCAL, 64));
        EmbeddedChannel channel = framedChannel(server);
        var allocation = new LargestAllocation();
        channel.config().setAllocator(allocation);
        List<Byte> sent = new ArrayList<>();
        try {
            feed(channel, stream, pieceBytes, sent);
            channel.close();
            drainOutbound(channel, sent);
        } finally {
            channel.finishAndReleaseAll();
        }
        assertThat(allocation.largestBytes())
                .as("largest buffer allocated")
                .isLessThanOrEqualTo(largestAllowed(pieceBytes));

        assertThat(sent).as("frame types sent").startsWith(Frames.CHALLENGE);
        if (handler.opened.isEmpty()) {
            assertThat(handler.refused).as("refusals reported").hasSize(1);
        } else {
            assertThat(withSecret).as("a link opened without the secret").isFalse();
            assertThat(handler.opened).hasSize(1);
            assertThat(handler.refused).isEmpty();
            assertThat(handler.closed).as("closes reported").hasSize(1);
            assertThat(sent).contains(Frames.WELCOME);
        }
    }

    @FuzzTest(maxDuration = "5m")
    void shouldOpenOrFailTheConnectionExactlyOnce(FuzzedDataProvider data) {
        boolean withSecret = (data.consumeByte() & 1) == 1;
        int pieceBytes = data.consumeInt(1, 200);
        byte[] stream = data.consumeRemainingAsBytes();
        var handler = new RecordingPeerHandler();
        Promise<PeerLink> result = ImmediateEventExecutor.INSTANCE.newPromise();
        var client = new ClientHandshakeHandler(settings(withSecret), handler, PEER, "127.0.0.1:9", result);
        EmbeddedChannel channel = framedChannel(client);
        var allocation = new LargestAllocation();
        channel.config().setAllocator(allocation);
        List<Byte> sent = new ArrayList<>();
        try {
            feed(channel, stream, pieceBytes, sent);
            channel.close();
            drainOutbound(channel, sent);
        } finally {
            channel.finishAndReleaseAll();
        }
        assertThat(allocation.largestBytes())
                .as("largest buffer allocated")
                .isLessThanOrEqualTo(largestAllowed(pieceBytes));

        assertThat(result.isDone())
                .as("the connect result is known once the connection ended")
                .isTrue();
        assertThat(handler.refused)
                .as("a client reports refusals through its result")
                .isEmpty();
        if (result.isSuccess()) {
            assertThat(withSecret)
                    .as("a link opened to a peer without the secret")
                    .isFalse();
            assertThat(handler.opened).containsExactly(result.getNow());
            assertThat(handler.closed).as("closes reported").hasSize(1);
            assertThat(sent).containsExactly(Frames.HELLO);
        } else {
            assertThat(result.cause())
                    .isInstanceOfAny(
                            PeerRefusedException.class,
                            PeerLinkFailedException.class,
                            ClosedBeforeChallengeException.class);
            assertThat(handler.opened).isEmpty();
            assertThat(sent).as("frame types sent").isSubsetOf(Frames.HELLO);
        }
    }

    /** The transport's pipeline: a handshake-sized frame decoder under its name, then {@code handshake}. */
    private static EmbeddedChannel framedChannel(io.netty.channel.ChannelHandler handshake) {
        return new EmbeddedChannel(new io.netty.channel.ChannelInitializer<>() {
            @Override
            protected void initChannel(io.netty.channel.Channel ch) {
                ch.pipeline()
                        .addLast(FrameDecoder.NAME, FrameDecoder.beforeHandshake(WireSettings.MIN_FRAME_BYTES))
                        .addLast(handshake);
            }
        });
    }

    private static WireSettings settings(boolean withSecret) {
        return new WireSettings(
                LOCAL,
                FINGERPRINT,
                withSecret ? SECRET : null,
                null,
                java.util.Map.of(),
                false,
                30_000,
                10_000,
                1_000,
                5_000,
                WireSettings.MIN_FRAME_BYTES);
    }

    /**
     * A frame at the limit, its length field and one read more, doubled as buffers grow: a buffer sized by
     * a length the peer sent would be far bigger.
     */
    private static int largestAllowed(int pieceBytes) {
        return 2 * (WireSettings.MIN_FRAME_BYTES + Integer.BYTES + pieceBytes);
    }

    /**
     * Writes the stream in pieces until it ends or the handler closes the connection. A throw out of
     * {@code writeInbound} is an exception that reached the end of the pipeline: a finding.
     */
    private static void feed(EmbeddedChannel channel, byte[] stream, int pieceBytes, List<Byte> sent) {
        for (int fed = 0; fed < stream.length && channel.isActive(); fed += pieceBytes) {
            int piece = Math.min(pieceBytes, stream.length - fed);
            channel.writeInbound(Unpooled.copiedBuffer(stream, fed, piece));
            drainOutbound(channel, sent);
        }
    }

    /** Records the type of every frame written, releasing it. */
    private static void drainOutbound(EmbeddedChannel channel, List<Byte> sent) {
        for (ByteBuf frame; (frame = channel.readOutbound()) != null; ) {
            try {
                assertThat(frame.readableBytes()).isGreaterThan(Frames.HEADER_BYTES - 1);
                assertThat(frame.getInt(frame.readerIndex())).isEqualTo(frame.readableBytes() - Integer.BYTES);
                sent.add(frame.getByte(frame.readerIndex() + Integer.BYTES));
            } finally {
                frame.release();
            }
        }
        channel.runPendingTasks();
    }
}
