package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.launcher.report.FailureReport;
import org.fastflowj.launcher.report.GroupReports;
import org.fastflowj.launcher.report.StatusBoard;
import org.junit.jupiter.api.Test;

/** What a group's output keeps for the failure report: its sealed news, its last lines, its failure lines. */
class GroupOutputTest {
    private static final String LOST = "[ff-dist-io-C-2] ERROR org.fastflowj.dist.run.GroupRun - group C failed: node"
            + " group B failed in connection: org.fastflowj.dist.run.link.PeerLostException: lost the connection from"
            + " group B at /127.0.0.1:60446 before its stream ended";

    @Test
    void shouldTakeTheOriginFromTheGroupsSealedMarkerLineOverTheWordsOfTheMessages() {
        // a group that lost B's link because B never came up names C, the group B was waiting for
        String key = ControlLine.newKey();
        GroupOutput output = output(new ControlLine.Verifier(key));
        output.line(LOST, true);
        output.line(new ControlLine.Sealer(key).seal(FailureReport.MARKER + " C"), true);
        assertThat(output.announcedOrigin()).isEqualTo("C");
        assertThat(output.failureLines()).containsExactly(LOST);
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
        assertThat(output.lastLines()).doesNotContain(LOST);
        assertThat(output.failureLines()).containsExactly(LOST);
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
                new StatusBoard(List.of("A"), null, new GroupReports()),
                null,
                new ControlLine.Verifier(key),
                news::add,
                true,
                null);
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
                new StatusBoard(List.of("A"), null, new GroupReports()),
                null,
                control,
                news -> {},
                false,
                new ShownCauses());
    }
}
