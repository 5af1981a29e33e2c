package org.fastflowj.dist;

import java.util.List;

/**
 * Where in the program's own code a failure started: the first stack frame, down the chain of causes,
 * that belongs to none of the JDK, FastFlow-J or the libraries it runs on. A group prints it for the
 * launcher, and the launcher shows it in place of a stack trace.
 *
 * <p>Threading: stateless.
 */
public final class ProgramFrames {
    /** Whose frames are not the program's. */
    private static final List<String> LIBRARY_PACKAGES = List.of(
            "java.",
            "javax.",
            "jdk.",
            "sun.",
            "com.sun.",
            "org.fastflowj.core.",
            "org.fastflowj.dist.",
            "org.fastflowj.patterns.",
            "io.netty.",
            "com.esotericsoftware.",
            "org.objenesis.",
            "org.jctools.",
            "org.slf4j.",
            "picocli.");

    private ProgramFrames() {}

    /** Whether a frame of {@code className} is the program's own code. */
    public static boolean isProgramCode(String className) {
        return LIBRARY_PACKAGES.stream().noneMatch(className::startsWith);
    }

    /**
     * The innermost cause's first frame of the program's code, as a trace prints it without the
     * {@code at} ({@code my.App.lambda$main$0(App.java:37)}), or null when no frame is the program's.
     */
    public static String first(Throwable failure) {
        Throwable innermost = failure;
        for (int depth = 0; innermost.getCause() != null && depth < 64; depth++) {
            innermost = innermost.getCause();
        }
        for (Throwable t = innermost; t != null; t = t == failure ? null : parentOf(failure, t)) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (isProgramCode(frame.getClassName())) {
                    return frame.toString();
                }
            }
        }
        return null;
    }

    /** The exception whose cause is {@code cause}, in {@code failure}'s chain. */
    private static Throwable parentOf(Throwable failure, Throwable cause) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 64; depth++) {
            if (t.getCause() == cause) {
                return t;
            }
            t = t.getCause();
        }
        return null;
    }
}
