package org.fastflowj.launcher;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.fastflowj.launcher.apps.ConfigGroupsApp;
import org.fastflowj.launcher.apps.SumApp;

/** Test support: the test app's command, configs on free ports, and the launcher run in-process. */
public final class Launcher {
    private static final Pattern PID = Pattern.compile("pid (\\d+)\\)");

    private Launcher() {}

    /** What one launcher run printed and returned. */
    public record Result(int code, String out, String err) {
        /** The pids of the processes the launcher started, from its "started" line. */
        public List<Long> pids() {
            return pidsIn(err);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    public static List<Long> pidsIn(String text) {
        List<Long> pids = new ArrayList<>();
        Matcher m = PID.matcher(text);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
        }
        return pids;
    }

    /** A cheap-to-start JVM running {@link SumApp} with {@code args}. */
    public static List<String> sumApp(String... args) {
        List<String> command = new ArrayList<>(javaCommand());
        command.add(SumApp.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    /** {@code ConfigGroupsApp}: a program whose groups are its config's, one pipeline stage each. */
    public static List<String> configGroupsApp(String... args) {
        List<String> command = new ArrayList<>(javaCommand());
        command.add(ConfigGroupsApp.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    public static List<String> javaCommand() {
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"));
    }

    /** {@code run} arguments: the launcher's options, then {@code --}, then the command. */
    public static String[] args(List<String> options, List<String> command) {
        return Stream.concat(Stream.concat(options.stream(), Stream.of("--")), command.stream())
                .toArray(String[]::new);
    }

    /** A config for groups A, B, C on free ports of {@code host} ({@code extra}: more keys per group). */
    public static Path config(Path dir, String host, String... extraPerGroup) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"groups\": [\n");
        String[] groups = {"A", "B", "C"};
        for (int i = 0; i < groups.length; i++) {
            String extra = extraPerGroup.length > i && !extraPerGroup[i].isEmpty() ? ", " + extraPerGroup[i] : "";
            json.append("    {\"name\": \"")
                    .append(groups[i])
                    .append("\", \"endpoint\": \"")
                    .append(host)
                    .append(':')
                    .append(freePort())
                    .append('"')
                    .append(extra)
                    .append('}')
                    .append(i + 1 < groups.length ? ",\n" : "\n");
        }
        json.append("  ]\n}\n");
        Path file = dir.resolve("app.json");
        Files.writeString(file, json);
        return file;
    }

    public static int freePort() {
        return org.fastflowj.testing.FreePorts.next();
    }

    /** Kills whatever of {@code pids} is still alive (a test's finally). */
    public static void killAll(List<Long> pids) {
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }));
    }
}
