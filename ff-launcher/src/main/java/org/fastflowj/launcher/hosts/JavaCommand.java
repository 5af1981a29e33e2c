package org.fastflowj.launcher.hosts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A command line that may start a JVM: whether its program is {@code java}, and where JVM options go in
 * it. The planners place a group's options with it, and the caches decide with it whether a command's
 * classes can be archived or its answer kept.
 *
 * <p>Threading: stateless.
 */
public final class JavaCommand {
    private JavaCommand() {}

    /** Whether {@code program} is a {@code java} executable, by its file name. */
    public static boolean isJava(String program) {
        Path name = Path.of(program).getFileName();
        return name != null && name.toString().equals("java");
    }

    /** {@code argv}, a java command, with {@code options} right after the program. */
    public static List<String> withJvmOptions(List<String> argv, List<String> options) {
        if (options.isEmpty() || !isJava(argv.get(0))) {
            return argv;
        }
        List<String> with = new ArrayList<>(argv.subList(0, 1));
        with.addAll(options);
        with.addAll(argv.subList(1, argv.size()));
        return with;
    }
}
