package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.dist.ControlLine;
import org.junit.jupiter.api.Test;

/** Which group the first group to exit names as the origin of a failure, from ff-dist's own messages. */
class FailureReportTest {
    private static final String OWN = "[ff-pipe1-stage1] ERROR org.fastflowj.dist.run.GroupRun - group B failed: node"
            + " ff-pipe1-stage1 failed in svc: java.lang.IllegalStateException: square refuses 50";
    private static final String ABORTED =
            "[ff-dist-io-A-1] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node"
                    + " group B failed in abort: org.fastflowj.dist.run.GroupFailedException: group B failed: node"
                    + " ff-pipe1-stage1 failed in svc: java.lang.IllegalStateException: square refuses 50";
    private static final String LOST = "[ff-dist-io-C-2] ERROR org.fastflowj.dist.run.GroupRun - group C failed: node"
            + " group B failed in connection: org.fastflowj.dist.run.PeerLostException: lost the connection from"
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
                + " connection: org.fastflowj.dist.run.PeerLostException: lost the connection to group B";
        assertThat(FailureReport.originNamedIn(List.of(cancelled, lost))).contains("B");
    }

    @Test
    void shouldNameThePeerWhoseConnectionASenderFoundLost() {
        // CI saw this: A's sender noticed the broken pipe in its svc before A's link handler did
        String line = "[ff-send-B] ERROR org.fastflowj.dist.run.GroupRun - group A failed: node ff-send-B failed in"
                + " svc: org.fastflowj.dist.run.PeerLostException: lost the connection to group B at"
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
    void shouldTakeTheOriginFromTheGroupsSealedMarkerLineOverTheWordsOfTheMessages() {
        // a group that lost B's link because B never came up names C, the group B was waiting for
        String key = ControlLine.newKey();
        GroupOutput output = output(new ControlLine.Verifier(key));
        output.line(LOST, true);
        output.line(new ControlLine.Sealer(key).seal(FailureReport.MARKER + " C"), true);
        assertThat(output.announcedOrigin()).isEqualTo("C");
        assertThat(FailureReport.originNamedIn(output.failureLines())).contains("B");
        assertThat(output.lastLines()).containsExactly(LOST);
    }

    @Test
    void shouldTakeAMarkerLineWithoutTheGroupsSealForTheProgramsOwnLine() {
        String key = ControlLine.newKey();
        GroupOutput output = output(new ControlLine.Verifier(key));
        String plain = FailureReport.MARKER + " C";
        String sealedByAnother = new ControlLine.Sealer(ControlLine.newKey()).seal(plain);
        output.line(plain, true);
        output.line(sealedByAnother, true);
        output.line(new ControlLine.Sealer(key).seal(plain), false); // on stdout: the program's
        assertThat(output.announcedOrigin()).isNull();
        assertThat(output.lastLines()).hasSize(3).startsWith(plain, sealedByAnother);
        assertThat(FailureReport.namesAFailure(plain)).isFalse();
        assertThat(FailureReport.originNamedIn(List.of(plain))).isEmpty();
    }

    @Test
    void shouldNameNoneWhenTheLinesSayNothingOfAFailure() {
        assertThat(FailureReport.originNamedIn(List.of("Exception in thread \"main\" java.lang.OutOfMemoryError")))
                .isEmpty();
    }

    @Test
    void shouldRememberTheLineNamingTheFailureAfterALongStackTracePushedItOutOfTheLastLines() {
        // a group that blames B, then prints more than the last lines keep
        GroupOutput output = output(null);
        output.line("A up", false);
        output.line(LOST, true);
        for (int i = 0; i < 3 * GroupOutput.REMEMBERED_LINES; i++) {
            output.line("retrying " + i, true);
        }
        assertThat(FailureReport.originNamedIn(output.lastLines())).isEmpty();
        assertThat(output.failureLines()).containsExactly(LOST);
        assertThat(FailureReport.originNamedIn(output.failureLines())).contains("B");
    }

    @Test
    void shouldTakeASealedLineOutOfALineTheProgramHadBegunAndKeepTheProgramsBytes() {
        String key = ControlLine.newKey();
        ControlLine.Sealer group = new ControlLine.Sealer(key);
        List<String> news = new ArrayList<>();
        GroupOutput output = new GroupOutput(
                "A",
                new PrintWriter(Writer.nullWriter()),
                new PrintWriter(Writer.nullWriter()),
                new StatusBoard(List.of("A"), null),
                null,
                new ControlLine.Verifier(key),
                news::add,
                true);
        // the program printed "half " without a line end, then ff-dist a sealed line, then the program went on
        output.line("half " + group.seal("DFF_CONNECTED: A"), true);
        output.line(group.seal("DFF_LOST: B"), true);
        output.line("of a line", true);
        output.line("unended " + group.seal(FailureReport.MARKER + " A"), true);
        output.ended(true);
        assertThat(news).containsExactly("DFF_CONNECTED: A", "DFF_LOST: B", FailureReport.MARKER + " A");
        assertThat(output.lastLines()).containsExactly("half of a line", "unended ");
    }

    private static GroupOutput output(ControlLine.Verifier control) {
        return new GroupOutput(
                "A",
                new PrintWriter(Writer.nullWriter()),
                new PrintWriter(Writer.nullWriter()),
                new StatusBoard(List.of("A"), null),
                null,
                control,
                news -> {},
                false);
    }
}
