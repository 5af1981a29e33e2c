package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.apps.MarkerLinesApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program's own lines that look like the groups' news to the launcher are the program's: printed and
 * logged unchanged, never acted on; and a group's sealed news speaks for that group only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControlLinesLaunchTest {
    private static final int LINES = 200;

    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryLineThatLooksLikeNewsUnchangedAndActOnNone() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path logs = dir.resolve("logs");
        Launcher.Result result = run(config, List.of("--stats", "--log-dir", logs.toString()), "");
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            List<String> expected = MarkerLinesApp.lines(LINES);
            assertThat(linesOf("[C] ", result.out(), expected))
                    .as(result.toString())
                    .isEqualTo(expected);
            assertThat(linesOf("[C] ", result.err(), expected))
                    .as(result.toString())
                    .isEqualTo(expected);
            List<String> logged = Files.readAllLines(logs.resolve("C.log"));
            assertThat(logged.stream().filter(expected::contains).count()).isEqualTo(2L * LINES);
            assertThat(result.err())
                    .contains("ff-launcher: every group exited 0\n")
                    .doesNotContain(" is lost", "failed first");
            // the groups' genuine news still came through: their statistics, each group connected
            assertThat(result.out()).contains("[C] statistics of group C:", "[A] statistics of group A:");
            assertThat(result.err()).contains("ff-launcher: all groups connected");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldIgnoreAGroupSayingItLostAGroupItMayNotLose() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = run(config, List.of(), "claim");
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.err())
                    .contains("ff-launcher: group C says it lost group A, which is not among the peers it may lose:"
                            + " ignored")
                    .contains("ff-launcher: every group exited 0\n")
                    .doesNotContain("group A is lost");
            List<String> expected = MarkerLinesApp.lines(LINES);
            assertThat(linesOf("[C] ", result.out(), expected)).isEqualTo(expected);
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    private static Launcher.Result run(Path config, List<String> options, String claim) {
        List<String> launcherOptions = new ArrayList<>(List.of("run", "-c", config.toString(), "--timeout", "60s"));
        launcherOptions.addAll(options);
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.add(MarkerLinesApp.class.getName());
        command.add(Integer.toString(LINES));
        if (!claim.isEmpty()) {
            command.add(claim);
        }
        return Launcher.run(Launcher.args(launcherOptions, command));
    }

    /** The lines of {@code text} with {@code prefix}, without it, that are among {@code wanted}, in order. */
    private static List<String> linesOf(String prefix, String text, List<String> wanted) {
        return text.lines()
                .filter(l -> l.startsWith(prefix))
                .map(l -> l.substring(prefix.length()))
                .filter(wanted::contains)
                .toList();
    }
}
