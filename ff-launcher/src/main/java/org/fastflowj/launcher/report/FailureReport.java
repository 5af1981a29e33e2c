package org.fastflowj.launcher.report;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.launcher.ExitStatus;
import org.fastflowj.launcher.hosts.GroupLaunch;

/**
 * What the launcher says when a group exits non-zero: which group failed first, and afterwards that
 * group's last lines.
 *
 * <p>ff-dist tells every peer of a failure, and a peer may exit before the group that failed: the first
 * group to exit then names the origin, and that group is the one reported. Every group that fails tells
 * the launcher the origin as it sees it, on a sealed line ({@link ControlLine}, {@link #MARKER}{@code  B}):
 * a peer that lost a group's link names that group, and a group that was frozen (SIGSTOP) and finds its
 * peers gone names itself. Only without that line (a program that failed before ff-dist ran) do the
 * messages' words decide ({@code group B failed: ...}); a program's line that merely begins like the
 * marker names nothing.
 *
 * <p>Threading: used on the run's thread only; the last lines come from the synchronized outputs.
 */
public final class FailureReport {
    /**
     * How ff-dist names a failure that came from a peer: {@code node group B failed in abort: ...} (B sent
     * ABORT) or {@code node group B failed in connection: ...} (B's connection was lost, which may reach a
     * peer before B's ABORT does). Nested, the last one in a line is the innermost cause.
     */
    private static final Pattern FROM_PEER = Pattern.compile("node group (\\S+) failed in ");
    /**
     * How ff-dist names a lost peer wherever the loss was noticed, e.g. by a sender in its {@code svc}:
     * {@code node ff-send-B failed in svc: PeerLostException: lost the connection to group B at ...}.
     */
    private static final Pattern LOST = Pattern.compile("lost the connection (?:to|from) group (\\S+?)(?: at |:|$)");
    /** ff-dist's line naming the origin of a failure, followed by that group's name: {@code DFF_FAILED: B}. */
    public static final String MARKER = "DFF_FAILED:";
    /** ff-dist's line naming the first frame of the program's code in the origin's own failure. */
    public static final String FRAME_MARKER = "DFF_FAILED_AT:";

    /** How ff-dist names a group's own failure: {@code group B failed: node square failed in svc: ...}. */
    private static final Pattern OWN = Pattern.compile("group (\\S+) failed: ");

    /** How the JVM starts an uncaught exception's line, which says nothing about the failure. */
    private static final Pattern UNCAUGHT = Pattern.compile("^Exception in thread \"[^\"]*\" ");

    private final GroupLines groups;
    private final List<GroupLaunch> launches;
    private final PrintWriter err;
    private final StatusBoard status;

    /**
     * What the report reads of each group's output, remembered while the groups ran: the run's part that
     * starts the groups keeps it, and the report only asks.
     */
    public interface GroupLines {
        /** The last lines {@code launch}'s group printed; none if it never started. */
        List<String> lastLines(GroupLaunch launch);

        /** The first lines {@code launch}'s group printed that name a failure; none if it never started. */
        List<String> failureLines(GroupLaunch launch);

        /** The origin of the failure {@code launch}'s group named on its sealed line, or null. */
        String announcedOrigin(GroupLaunch launch);

        /** {@code launch}'s first exception as its output showed it; nothing known if it never started. */
        Failure failure(GroupLaunch launch);
    }

    /**
     * A group's first exception as its output showed it.
     *
     * @param exception the line that starts the first stack trace, or null
     * @param programFrame the first frame of the program's code in it, or null
     * @param cutLines how many lines of stack traces were not shown
     */
    public record Failure(String exception, String programFrame, int cutLines) {}

    public FailureReport(GroupLines groups, List<GroupLaunch> launches, PrintWriter err, StatusBoard status) {
        this.groups = groups;
        this.launches = List.copyOf(launches);
        this.err = err;
        this.status = status;
    }

    /** Says which group failed first, given the first to exit and its code; returns that group. */
    public GroupLaunch sayOrigin(GroupLaunch firstToExit, int code) {
        GroupLaunch origin = originOf(firstToExit);
        say("ff-launcher: " + describe(firstToExit, origin, code, "failed first"));
        return origin;
    }

    /**
     * The failure in a few words, for the line that announces a restart: {@code group B failed: exit code 1},
     * or {@code group B failed (group A, the first to exit, says so with exit code 1)}.
     */
    public String describeFailure(GroupLaunch firstToExit, int code) {
        return describe(firstToExit, originOf(firstToExit), code, "failed");
    }

    private static String describe(GroupLaunch firstToExit, GroupLaunch origin, int code, String failed) {
        String how = ExitStatus.describe(code, firstToExit.remote());
        if (origin.equals(firstToExit)) {
            return "group " + firstToExit.group() + " " + failed + ": " + how;
        }
        return "group " + origin.group() + " " + failed + " (group " + firstToExit.group()
                + ", the first to exit, says so with " + how + ")";
    }

    /** The group that failed first, as the first to exit names it; that group itself if it names none. */
    private GroupLaunch originOf(GroupLaunch firstToExit) {
        List<String> lines = new ArrayList<>(groups.failureLines(firstToExit));
        lines.addAll(groups.lastLines(firstToExit));
        return Optional.ofNullable(groups.announcedOrigin(firstToExit))
                .or(() -> originNamedIn(lines))
                .flatMap(name ->
                        launches.stream().filter(l -> l.group().equals(name)).findFirst())
                .orElse(firstToExit);
    }

    /** Whether {@code line} names a failure, its group's own or a peer's: worth remembering for the report. */
    public static boolean namesAFailure(String line) {
        return OWN.matcher(line).find()
                || FROM_PEER.matcher(line).find()
                || LOST.matcher(line).find();
    }

    /**
     * The group a failing group's last lines name as the origin, when it sent no sealed {@link #MARKER}: the
     * innermost peer it blames in the first line that blames one, else the group of the
     * first line reporting its own failure. A line in
     * which a group blames itself ({@code group A failed: node group A failed in run: ...cancelled}, a
     * node that saw the run cancelled) blames no peer.
     */
    static Optional<String> originNamedIn(List<String> lines) {
        for (String line : lines) {
            Matcher own = OWN.matcher(line);
            String self = own.find() ? own.group(1) : null;
            String innermost = null;
            for (Matcher m = FROM_PEER.matcher(line); m.find(); ) {
                if (!m.group(1).equals(self)) {
                    innermost = m.group(1);
                }
            }
            if (innermost == null) {
                Matcher lost = LOST.matcher(line);
                if (lost.find() && !lost.group(1).equals(self)) {
                    innermost = lost.group(1);
                }
            }
            if (innermost != null) {
                return Optional.of(innermost);
            }
        }
        return lines.stream()
                .map(OWN::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .findFirst();
    }

    /**
     * The last lines of {@code origin}, once every group has stopped and they are complete; the cause's
     * message, which {@link #sayCause} says next, is not repeated in them.
     */
    public void sayLastLines(GroupLaunch origin) {
        List<String> last = groups.lastLines(origin);
        String message = cause(origin).map(CauseLine::message).orElse(null);
        say("ff-launcher: the last lines of group " + origin.group() + (last.isEmpty() ? ": (none)" : ":"));
        for (String line : last) {
            if (message != null && message.length() >= CauseLine.LONG_MESSAGE && line.endsWith(message)) {
                line = line.substring(0, line.length() - message.length()) + "(below)";
            }
            say("  [" + origin.group() + "] " + line);
        }
    }

    /**
     * The origin's failure in one line, in the words of its innermost exception ({@code group B failed with
     * java.lang.IllegalStateException in node square: square refuses 50}), the first frame of the
     * program's code under it, and where the stack-trace lines that were cut can be read.
     *
     * @param logDir the run's log folder, or null
     */
    public void sayCause(GroupLaunch origin, Path logDir) {
        Failure failure = groups.failure(origin);
        Optional<String> said = cause(origin)
                .map(c -> "group " + origin.group() + " failed " + c.describe())
                .or(() -> Optional.ofNullable(failure.exception())
                        .map(e -> "group " + origin.group() + " failed with "
                                + UNCAUGHT.matcher(e).replaceFirst("")));
        said.ifPresent(why -> say("ff-launcher: " + why));
        if (failure.programFrame() != null) {
            say("ff-launcher:   " + failure.programFrame());
        }
        int cut = launches.stream().mapToInt(l -> groups.failure(l).cutLines()).sum();
        if (cut > 0) {
            say("ff-launcher: " + cut + " lines of stack traces are not shown: "
                    + (logDir == null
                            ? "--full-traces shows them, --log-dir DIR keeps them"
                            : "every line is in the log files in " + logDir));
        }
    }

    /**
     * The origin's innermost cause: from its first exception, else (stopped before it printed it) from the
     * groups' reports of its failure.
     */
    private Optional<CauseLine> cause(GroupLaunch origin) {
        String exception = groups.failure(origin).exception();
        return Optional.ofNullable(exception)
                .or(() -> ownFailure(origin.group()))
                .flatMap(CauseLine::of)
                .filter(c -> c.exception() != null || c.message() != null);
    }

    /** {@code group B failed: <why>}, as the groups' lines that name a failure report B's, innermost. */
    private Optional<String> ownFailure(String group) {
        String own = "group " + group + " failed: ";
        return launches.stream()
                .flatMap(l -> groups.failureLines(l).stream())
                .filter(line -> line.contains(own))
                .map(line -> line.substring(line.lastIndexOf(own)))
                .findFirst();
    }

    private void say(String line) {
        status.emit(err, line);
    }
}
