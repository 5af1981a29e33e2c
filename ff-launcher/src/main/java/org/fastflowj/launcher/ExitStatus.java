package org.fastflowj.launcher;

import java.util.Map;

/**
 * Words for a process's exit code. Java reports a process ended by signal {@code n} as
 * {@code 128 + n}, the shell's convention, and so does ssh for a remote command; a code above 128 is
 * therefore named as the signal it most likely was.
 *
 * <p>Threading: stateless.
 */
public final class ExitStatus {
    private static final Map<Integer, String> SIGNALS = Map.of(
            1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 6, "SIGABRT", 9, "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15,
            "SIGTERM");

    /** What ff-dist exits with when a JVM error (out of memory, stack overflow) halted a group. */
    static final int JVM_ERROR = 3;

    private ExitStatus() {}

    /** {@code "exit code 1"}, {@code "exit code 137 (signal 9, SIGKILL)"}, ... */
    public static String describe(int code, boolean remote) {
        StringBuilder s = new StringBuilder("exit code ").append(code);
        if (code == JVM_ERROR) {
            s.append(" (a JVM error such as out of memory halted the group)");
        } else if (remote && code == 255) {
            s.append(" (ssh's code for a failed connection or login, or the group's own)");
        } else if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            s.append(" (signal ").append(signal);
            String name = SIGNALS.get(signal);
            if (name != null) {
                s.append(", ").append(name);
            }
            s.append(')');
        }
        return s.toString();
    }
}
