package org.fastflowj.launcher.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A group for the launcher's restarts, without ff-dist's run: each start writes a marker file {@code
 * GROUP.attemptN} holding its {@code DFF_Resume}; then the group named {@code failing} fails as {@code
 * how} says, and every other group waits to be killed on its first start and exits 0 once resumed.
 *
 * <p>Arguments besides DFF's: {@code markerDir failing how}, {@code how} one of {@code exit3-once} (exits 3
 * unless resumed, then 0), {@code exit1-always}, {@code wait-for-kill} (writes {@code GROUP.pid} and waits
 * unless resumed, then exits 0).
 */
public final class RestartingApp {
    private RestartingApp() {}

    public static void main(String[] args) throws Exception {
        String group = null;
        List<String> rest = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--DFF_GName=")) {
                group = arg.substring("--DFF_GName=".length());
            } else if (!arg.startsWith("--DFF_")) {
                rest.add(arg);
            }
        }
        Path dir = Path.of(rest.get(0));
        String failing = rest.get(1);
        String how = rest.get(2);
        String resume = System.getenv("DFF_Resume");
        boolean resumed = resume != null;
        int attempt = 1;
        while (Files.exists(dir.resolve(group + ".attempt" + attempt))) {
            attempt++;
        }
        Files.writeString(
                dir.resolve(group + ".attempt" + attempt),
                "DFF_Resume=" + resume + " DFF_CheckpointsAfter=" + System.getenv("DFF_CheckpointsAfter"));
        System.out.println(group + " attempt " + attempt + " up");
        if (!group.equals(failing)) {
            Thread.sleep(resumed ? 200 : 60_000);
            return;
        }
        switch (how) {
            case "exit3-once" -> {
                Thread.sleep(300);
                System.exit(resumed ? 0 : 3);
            }
            case "exit1-always" -> {
                Thread.sleep(300);
                System.exit(1);
            }
            case "wait-for-kill" -> {
                if (!resumed) {
                    Files.writeString(
                            dir.resolve(group + ".pid"),
                            Long.toString(ProcessHandle.current().pid()));
                    Thread.sleep(60_000);
                }
            }
            default -> throw new IllegalArgumentException("unknown failure " + how);
        }
    }
}
