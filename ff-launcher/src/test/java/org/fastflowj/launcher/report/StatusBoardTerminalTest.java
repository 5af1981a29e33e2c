package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.Main;
import org.fastflowj.launcher.Tmux;
import org.fastflowj.launcher.hosts.ShellQuoting;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live status lines on a real terminal: the launcher runs in an interactive bash on a tmux
 * pseudo-terminal, as a user would start it, with the three-group {@code SumApp}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatusBoardTerminalTest {
    private static final Pattern EXIT = Pattern.compile("^launcher-exit=(\\d+)$");
    private static final Pattern STATUS_ROW = Pattern.compile("^  ([ABC]): (.*)$");
    /** A row's state, then the time since the group started and, once it reported, its rate. */
    private static final Pattern STATE_TIME_RATE =
            Pattern.compile("^  ([ABC]): ([a-z0-9 ]+), [0-9.]+ s(, [0-9 ]+ items/s)?$");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsTmux() {
        assumeTrue(Tmux.available(), "tmux is not installed: no pseudo-terminal to run the launcher on");
    }

    @Test
    void shouldShowEveryGroupsStateBelowTheOutputAndLeaveTheFinalStatesOnScreen() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> pids = new ArrayList<>();
        try (Tmux tmux = new Tmux(dir, 160, 60)) {
            tmux.type(launcherCommand(config, "1000", "-1", "0"));
            int code = exitCode(tmux.awaitRow(EXIT.asPredicate(), 40));
            List<String> screen = tmux.screen();
            pids.addAll(pidsOn(screen));
            String shown = String.join("\n", screen);
            assertThat(code).as(shown).isZero();

            // Exactly one block, right below the launcher's last line and above the shell's next output.
            assertThat(screen.stream().filter(STATUS_ROW.asPredicate()).map(GroupRow::of))
                    .as(shown)
                    .containsExactly(
                            new GroupRow("A", "ended 0", true),
                            new GroupRow("B", "ended 0", true),
                            new GroupRow("C", "ended 0", true));
            int last = rowOf(screen, "ff-launcher: every group exited 0");
            assertThat(screen.subList(last + 1, last + 4).stream().map(GroupRow::of))
                    .as(shown)
                    .containsExactly(
                            new GroupRow("A", "ended 0", true),
                            new GroupRow("B", "ended 0", true),
                            new GroupRow("C", "ended 0", true));
            assertThat(screen.get(last + 4)).as(shown).isEqualTo("launcher-exit=0");
            // The output scrolled above the block, every line whole.
            assertThat(screen)
                    .as(shown)
                    .contains("[A] A up", "[B] B up", "[C] C up", "[C] sum=332833500 count=1000")
                    .anySatisfy(row -> assertThat(row).startsWith("ff-launcher: started 3 of 3 groups in"))
                    .anySatisfy(row -> assertThat(row).startsWith("ff-launcher: all groups connected"));

            // The states the block went through, as drawn.
            String raw = tmux.raw();
            assertThat(raw).contains("  A: starting, ", "  B: waiting\r\n", "  C: waiting\r\n");
            for (String g : List.of("A", "B", "C")) {
                assertDrawnInOrder(raw, g, "starting", "running", "connected", "ended 0");
            }
        } finally {
            kill(pids);
        }
    }

    @Test
    void shouldStopEveryGroupOnCtrlCAndLeaveTheTerminalUsable() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> pids = new ArrayList<>();
        try (Tmux tmux = new Tmux(dir, 160, 60)) {
            tmux.type(launcherCommand(config, "1000000", "-1", "10000"));
            tmux.awaitRow(row -> row.startsWith("ff-launcher: all groups connected"), 30);
            tmux.awaitRow(row -> row.startsWith("  C: connected, "), 10);
            // the rows move on each second: C's rate once it reported, while it runs
            tmux.awaitRow(row -> row.startsWith("  C: connected, ") && row.endsWith(" items/s"), 10);
            pids.addAll(pidsOn(tmux.screen()));
            assertThat(pids).hasSize(3);

            tmux.press("C-c");
            int code = exitCode(tmux.awaitRow(EXIT.asPredicate(), 30));
            List<String> screen = tmux.screen();
            String shown = String.join("\n", screen);
            assertThat(code).as(shown).isEqualTo(RunSession.EXIT_INTERRUPTED);
            assertThat(screen)
                    .as(shown)
                    .contains("ff-launcher: interrupted; stopping every group")
                    .noneMatch(row -> row.contains("failed first"));
            for (String g : List.of("A", "B", "C")) {
                assertThat(screen).as(shown).anySatisfy(row -> assertThat(row)
                        .startsWith("ff-launcher: stopped group " + g + ": exit code 143 (signal 15, SIGTERM)"));
            }
            assertThat(screen.stream().filter(STATUS_ROW.asPredicate()).map(row -> GroupRow.of(row)
                            .state()))
                    .as(shown)
                    .containsExactly("ended 143", "ended 143", "ended 143");
            String raw = tmux.raw();
            for (String g : List.of("A", "B", "C")) {
                assertDrawnInOrder(raw, g, "running", "connected", "stopping", "ended 143");
            }
            for (String pid : pids) {
                assertThat(ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive))
                        .as("group pid " + pid)
                        .isEmpty();
            }

            // The shell has the terminal back: what is typed runs, and its output starts on a line of its own.
            tmux.type("echo usable-$((6 * 7))");
            tmux.awaitRow(row -> row.equals("usable-42"), 10);
        } finally {
            kill(pids);
        }
    }

    /**
     * The line typed into the shell: the launcher (the job itself, through exec in a script) with
     * {@code SumApp count failAt sleepMicros}, then its exit code on a line of its own.
     */
    private String launcherCommand(Path config, String... sumAppArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of("exec"));
        command.addAll(Launcher.javaCommand());
        command.add(Main.class.getName());
        command.addAll(List.of(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "45s", "--grace", "2s"),
                Launcher.sumApp(sumAppArgs))));
        Path script = dir.resolve("launch.sh");
        Files.writeString(script, ShellQuoting.join(command) + "\n");
        return "sh " + ShellQuoting.quote(script.toString()) + "; echo launcher-exit=$?";
    }

    /** A status row: the group, its state, and whether it shows a rate. */
    private record GroupRow(String group, String state, boolean rate) {
        static GroupRow of(String row) {
            Matcher m = STATE_TIME_RATE.matcher(row);
            assertThat(m.matches()).as("status row '%s'", row).isTrue();
            return new GroupRow(m.group(1), m.group(2), m.group(3) != null);
        }
    }

    /** Each of {@code states} was drawn as {@code group}'s status row, each first drawn after the one before. */
    private static void assertDrawnInOrder(String raw, String group, String... states) {
        List<Integer> firstDrawn = new ArrayList<>();
        for (String state : states) {
            int at = raw.indexOf("  " + group + ": " + state + ", ");
            assertThat(at).as("%s: %s drawn", group, state).isNotNegative();
            firstDrawn.add(at);
        }
        assertThat(firstDrawn)
                .as("%s: %s drawn in this order", group, List.of(states))
                .isSorted();
    }

    private static int exitCode(String row) {
        Matcher m = EXIT.matcher(row);
        assertThat(m.matches()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static int rowOf(List<String> screen, String row) {
        int i = screen.lastIndexOf(row);
        assertThat(i).as(String.join("\n", screen)).isNotNegative();
        return i;
    }

    private static List<String> pidsOn(List<String> screen) {
        return Launcher.pidsIn(String.join("\n", screen)).stream()
                .map(String::valueOf)
                .toList();
    }

    private static void kill(List<String> pids) {
        Launcher.killAll(pids.stream().map(Long::parseLong).toList());
    }
}
