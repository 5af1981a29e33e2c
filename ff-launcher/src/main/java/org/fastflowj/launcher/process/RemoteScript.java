package org.fastflowj.launcher.process;

import java.time.Duration;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.launcher.hosts.ShellQuoting;

/**
 * The shell script a remote group runs in, so that stopping the ssh client stops the group too.
 *
 * <p>ssh gives no way to signal the remote command (and without a terminal a dropped connection sends
 * it nothing), so the script watches its own standard input instead: the launcher keeps the ssh
 * client's input open for the whole run and closes it to ask for a stop; a launcher that dies closes it
 * as well. On end of input the script sends SIGTERM to the group's whole process group (started with
 * {@code setsid}), then SIGKILL after the grace period. The group's own exit status is the script's,
 * and so ssh's.
 *
 * <p>The first line of that input is the run's secret ({@link RunSecret}, or an empty line when the
 * config has its own), exported as {@code DFF_Secret} to the group: on ssh's command line every user of
 * both machines could read it with {@code ps}. The second line is the group's key for its news to the
 * launcher ({@link org.fastflowj.dist.ControlLine}), exported as {@code DFF_ControlKey} the same way. The
 * third and fourth say where the group's checkpoints start, exported as {@code DFF_Resume} (the
 * checkpoint a restarted group resumes from) and {@code DFF_CheckpointsAfter}, each empty when it does not
 * apply: the script is the same for every start of the group, its input is not.
 *
 * <pre>
 *   cd DIR || exit 126
 *   read the first line into DFF_Secret; export it unless empty
 *   read the second line into DFF_ControlKey; export it
 *   read the third line into DFF_Resume, the fourth into DFF_CheckpointsAfter; export each unless empty
 *   exec 3&lt;&amp;0                                  # the ssh input, kept as fd 3
 *   setsid /bin/sh -c 'PRECMD COMMAND' &lt;/dev/null 3&lt;&amp;- &amp;
 *   watcher: read fd 3 until end; TERM the group; sleep GRACE; KILL the group
 *   wait for the group; stop the watcher; exit with the group's status
 * </pre>
 *
 * <p>Threading: stateless.
 */
public final class RemoteScript {
    private static final String CONTROL_KEY_ENV = org.fastflowj.dist.ControlLine.ENV;
    private static final String RESUME_ENV = org.fastflowj.dist.DFF.RESUME_ENV;
    private static final String CHECKPOINTS_AFTER_ENV = org.fastflowj.dist.DFF.CHECKPOINTS_AFTER_ENV;

    private RemoteScript() {}

    /** The script for {@code commandLine} (already shell syntax), started in {@code dir} if not null. */
    public static String wrap(String dir, String commandLine, Duration grace) {
        long graceSeconds = Math.max(1, (grace.toMillis() + 999) / 1000);
        StringBuilder s = new StringBuilder();
        if (dir != null) {
            s.append("cd ").append(ShellQuoting.quote(dir)).append(" || exit 126; ");
        }
        // sh's read takes one byte at a time from a pipe: the rest of the input stays for the watcher.
        readOptional(s, RunSecret.ENV);
        s.append("IFS= read -r ")
                .append(CONTROL_KEY_ENV)
                .append(" || exit 125; export ")
                .append(CONTROL_KEY_ENV)
                .append("; ");
        readOptional(s, RESUME_ENV);
        readOptional(s, CHECKPOINTS_AFTER_ENV);
        s.append("exec 3<&0; ");
        s.append("setsid /bin/sh -c ").append(ShellQuoting.quote(commandLine)).append(" </dev/null 3<&- & p=$!; ");
        // The watcher's output goes nowhere: a sleeping watcher must not hold the ssh session open.
        s.append("{ while read -r _ <&3; do :; done; kill -TERM -$p 2>/dev/null; sleep ")
                .append(graceSeconds)
                .append("; kill -KILL -$p 2>/dev/null; } >/dev/null 2>&1 & w=$!; ");
        s.append("wait $p; s=$?; kill $w 2>/dev/null; exit $s");
        return s.toString();
    }

    /** The next input line into {@code variable}, exported unless empty (then unset: none inherited either). */
    private static void readOptional(StringBuilder s, String variable) {
        s.append("IFS= read -r ").append(variable).append(" || exit 125; ");
        s.append("if [ -n \"$")
                .append(variable)
                .append("\" ]; then export ")
                .append(variable)
                .append("; else unset ")
                .append(variable)
                .append("; fi; ");
    }

    /** What the launcher writes first into the script's input: the four lines it reads. */
    static String input(String secret, String controlKey, CheckpointStart checkpoints) {
        String resume = checkpoints == null || !checkpoints.resumes() ? "" : Long.toString(checkpoints.resumeFrom());
        String after = checkpoints == null ? "" : Long.toString(checkpoints.numberedAfter());
        return (secret == null ? "" : secret) + "\n" + controlKey + "\n" + resume + "\n" + after + "\n";
    }
}
