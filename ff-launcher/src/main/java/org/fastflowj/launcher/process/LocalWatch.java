package org.fastflowj.launcher.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The few lines of POSIX sh a local group starts under, so that it ends when the launcher does, even
 * when the launcher is killed with SIGKILL and can stop nothing.
 *
 * <p>The launcher keeps the group's standard input, a pipe, open for the whole run; the kernel closes
 * its end when the launcher dies, however it dies. The script forks a watcher that reads that pipe, then
 * replaces itself with the group's command ({@code exec}): the group keeps the pid, the exit status and
 * the output pipes the launcher started, and its own input is empty, as before. At the end of the pipe
 * the watcher sends SIGTERM to the group's process group, and SIGKILL after the grace period.
 *
 * <pre>
 *   setsid /bin/sh -c SCRIPT ff-group COMMAND...          (setsid: the group leads its process group)
 *   SCRIPT:  exec 3&lt;&amp;0 &lt;/dev/null                    # the launcher's pipe, kept as fd 3
 *            watcher &amp;: read fd 3 until its end; if the group lives: TERM it; sleep GRACE; KILL it
 *            exec COMMAND... 3&lt;&amp;-
 * </pre>
 *
 * <p>The watcher ignores SIGTERM: the launcher's own stop sends SIGTERM to every process of the tree,
 * the watcher included, and the watcher must stay to insist with SIGKILL if the launcher dies during the
 * grace period. Once the group has exited the launcher closes the pipe, and the watcher, finding no
 * group, ends at once.
 *
 * <p>Threading: stateless.
 */
final class LocalWatch {
    /** The name {@code $0} takes in the script: what {@code ps} shows before the {@code exec}. */
    private static final String SCRIPT_NAME = "ff-group";

    private LocalWatch() {}

    /** {@code argv} run under the watcher, as a command to start (after {@code setsid}, if any). */
    static List<String> wrap(List<String> argv, Duration grace) {
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", script(grace), SCRIPT_NAME));
        wrapped.addAll(argv);
        return wrapped;
    }

    static String script(Duration grace) {
        long graceSeconds = Math.max(1, (grace.toMillis() + 999) / 1000);
        // Without setsid the group leads no process group of its own: "-$$" fails, and the group alone
        // is signalled.
        return "exec 3<&0 </dev/null; "
                + "{ trap '' TERM; while read -r _ <&3; do :; done; kill -0 $$ || exit 0; "
                + "kill -TERM -$$ || kill -TERM $$; sleep " + graceSeconds + "; "
                + "kill -KILL -$$ || kill -KILL $$; } >/dev/null 2>&1 & "
                + "exec \"$@\" 3<&-";
    }
}
