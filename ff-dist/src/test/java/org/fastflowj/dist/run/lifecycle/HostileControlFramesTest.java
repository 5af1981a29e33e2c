package org.fastflowj.dist.run.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.apps.FlowControlApp;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.run.GroupRun;
import org.fastflowj.dist.run.HostilePeer;
import org.fastflowj.dist.run.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Control frames from a peer that completed a genuine handshake are checked like batches: an ENDED must
 * name a group of the run, an ABORT's reason is capped before anything stores, logs or passes it on, and an
 * ABORT that names a group outside the run as its origin counts as the sender's own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileControlFramesTest {
    private static final int THIRTY_MIB = 30 << 20;

    @Test
    void shouldRefuseAPeerWhoseEndedNamesAGroupOutsideTheRun() throws Exception {
        Throwable failure = runBAgainst(peer -> {
            for (int i = 0; i < 1_000; i++) { // a flood of made-up ends: the first one fails the link
                peer.send(Frames.ENDED, utf(peer, "G-made-up-" + i));
            }
        });

        assertThat(failure)
                .hasMessageContaining("DFF_TEST_PEER broke the protocol: it sent ENDED for 'G-made-up-0', which is not"
                        + " a group this group runs with (A, B)")
                .hasMessageNotContaining("G-made-up-1'");
    }

    @Test
    void shouldCutAHugeAbortReasonAndBlameTheSenderForAnOriginOutsideTheRun() throws Exception {
        Throwable failure = runBAgainst(peer -> {
            ByteBuf abort = peer.awaitLinkQuietly().alloc().buffer(THIRTY_MIB + 64);
            GroupLinks.writeUtf(abort, "G-nobody");
            abort.writeInt(THIRTY_MIB).writeZero(THIRTY_MIB); // 30 MiB of NUL characters
            peer.send(Frames.ABORT, abort);
        });

        assertThat(failure)
                .isInstanceOf(GroupFailedException.class)
                .hasMessageStartingWith("group A failed: DFF_TEST_PEER sent an ABORT naming 'G-nobody' as its"
                        + " origin, which is not a group of this run: ")
                .hasMessageEndingWith("... (" + (THIRTY_MIB - GroupLinks.MAX_REASON_BYTES) + " bytes cut)");
        assertThat(((GroupFailedException) failure).origin()).isEqualTo("A");
        assertThat(failure.getMessage().length()).isLessThan(GroupLinks.MAX_REASON_BYTES + 300);
    }

    @Test
    void shouldKeepTheOriginOfAnAbortNamingAGroupOfTheRun() throws Exception {
        Throwable failure = runBAgainst(peer -> peer.send(Frames.ABORT, abort(peer, "A", "node x threw")));

        assertThat(failure).isInstanceOf(GroupFailedException.class).hasMessage("group A failed: node x threw");
    }

    private interface Hostility {
        void act(HostilePeer peer) throws Exception;
    }

    /** Group B of a two-group run, with a hostile A; returns the failure of B's run (its root: the cause chain's end). */
    private static Throwable runBAgainst(Hostility hostility) throws Exception {
        DffConfig config = LocalCluster.config(List.of("A", "B"), "");
        Pipeline program = FlowControlApp.program(1_000, 0, new long[2]);
        Execution b = GroupRun.start(
                GraphCompiler.compile(program),
                RunOptions.defaults(),
                new DFF.Settings("B", config, SerializationConfig.defaults(), false));
        try (HostilePeer peer = HostilePeer.connecting("A", "B", program, config)) {
            peer.awaitLink(10);
            hostility.act(peer);
            Throwable thrown = catchThrowable(b::await);
            assertThat(thrown).as("B's run must fail").isNotNull();
            Throwable cause = thrown;
            while (cause.getCause() != null && !(cause instanceof GroupFailedException)) {
                cause = cause.getCause();
            }
            String described = cause.getMessage().replace(peerName(peer), "DFF_TEST_PEER");
            return cause instanceof GroupFailedException g
                    ? new GroupFailedException(g.origin(), g.reason().replace(peerName(peer), "DFF_TEST_PEER"))
                    : new RuntimeException(described, cause);
        } finally {
            b.cancel();
        }
    }

    private static String peerName(HostilePeer peer) {
        return "group A at " + peer.localAddress();
    }

    private static ByteBuf utf(HostilePeer peer, String s) {
        ByteBuf buf = peer.awaitLinkQuietly().alloc().buffer();
        GroupLinks.writeUtf(buf, s);
        return buf;
    }

    private static ByteBuf abort(HostilePeer peer, String origin, String why) {
        ByteBuf buf = utf(peer, origin);
        GroupLinks.writeUtf(buf, why);
        return buf;
    }
}
