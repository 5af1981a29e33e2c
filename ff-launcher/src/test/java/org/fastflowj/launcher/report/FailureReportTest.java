package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which group the first group to exit names as the origin of a failure, from ff-dist's own messages. */
class FailureReportTest {
    private static final String OWN = "[ff-pipe1-stage1] ERROR org.fastflowj.dist.run.GroupRun - group B failed: node"
            + " ff-pipe1-stage1 failed in svc: java.lang.IllegalStateException: square refuses 50";
    private static final String ABORTED =
            "[ff-dist-io-A-1] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node"
                    + " group B failed in abort: org.fastflowj.dist.run.lifecycle.GroupFailedException: group B failed: node"
                    + " ff-pipe1-stage1 failed in svc: java.lang.IllegalStateException: square refuses 50";
    private static final String LOST = "[ff-dist-io-C-2] ERROR org.fastflowj.dist.run.GroupRun - group C failed: node"
            + " group B failed in connection: org.fastflowj.dist.run.link.PeerLostException: lost the connection from"
            + " group B at /127.0.0.1:60446 before its stream ended";
    private static final String NESTED = "group A failed: node group C failed in abort: GroupFailedException: group C"
            + " failed: node group B failed in connection: PeerLostException: lost the connection from group B";

    @Test
    void shouldNameTheGroupThatFailedOnItsOwn() {
        assertThat(FailureReport.originNamedIn(List.of("B up", OWN))).contains("B");
    }

    @Test
    void shouldNameThePeerThatSentTheAbort() {
        assertThat(FailureReport.originNamedIn(List.of(ABORTED))).contains("B");
    }

    @Test
    void shouldNameThePeerWhoseConnectionWasLostBeforeItsAbortArrived() {
        // group C exited first, blaming B's lost connection: B is the origin, not C (CI saw this race)
        assertThat(FailureReport.originNamedIn(List.of(LOST, "\tat org.fastflowj...")))
                .contains("B");
    }

    @Test
    void shouldPassOverALineInWhichTheGroupBlamesItself() {
        // a node of A saw the run cancelled and logged it before the line naming the real cause (CI saw this)
        String cancelled = "[ff-send-B] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node group A failed"
                + " in run: java.util.concurrent.CancellationException: cancelled";
        String lost = "[ff-dist-io-A-1] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node group B failed in"
                + " connection: org.fastflowj.dist.run.link.PeerLostException: lost the connection to group B";
        assertThat(FailureReport.originNamedIn(List.of(cancelled, lost))).contains("B");
    }

    @Test
    void shouldNameThePeerWhoseConnectionASenderFoundLost() {
        // CI saw this: A's sender noticed the broken pipe in its svc before A's link handler did
        String line = "[ff-send-B] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node ff-send-B failed in"
                + " svc: org.fastflowj.dist.run.link.PeerLostException: lost the connection to group B at"
                + " 127.0.0.1/127.0.0.1:41339 before it received everything: group B at 127.0.0.1:41339: Broken pipe";
        assertThat(FailureReport.originNamedIn(List.of(line, "\tat org.fastflowj...")))
                .contains("B");
        assertThat(FailureReport.namesAFailure(line)).isTrue();
    }

    @Test
    void shouldNameTheInnermostPeerOfANestedCause() {
        assertThat(FailureReport.originNamedIn(List.of(NESTED))).contains("B");
    }

    @Test
    void shouldNameNoneWhenTheLinesSayNothingOfAFailure() {
        assertThat(FailureReport.originNamedIn(List.of("Exception in thread \"main\" java.lang.OutOfMemoryError")))
                .isEmpty();
    }

    @Test
    void shouldNameNoOriginInAMarkerLineThatIsNoSealedLine() {
        String plain = FailureReport.MARKER + " C";
        assertThat(FailureReport.namesAFailure(plain)).isFalse();
        assertThat(FailureReport.originNamedIn(List.of(plain))).isEmpty();
    }
}
