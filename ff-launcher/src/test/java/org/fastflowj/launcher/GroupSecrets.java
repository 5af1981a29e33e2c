package org.fastflowj.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.launcher.process.RunSecret;

/**
 * Test support: what {@code SumApp}'s groups say of the secret they were handed ({@code [A] A secret:
 * 43 chars, sha256 ...}), the secret itself read from a live group's environment, and the command lines
 * of every process of the machine, where it must never show.
 */
public final class GroupSecrets {
    private static final Pattern SAID = Pattern.compile("\\[(\\w+)] \\w+ secret: (.+)");

    private GroupSecrets() {}

    /** Each group's description of its secret ({@code 43 chars, sha256 ...} or {@code none}). */
    public static Map<String, String> described(String launcherOutput) {
        Map<String, String> said = new TreeMap<>();
        Matcher m = SAID.matcher(launcherOutput);
        while (m.find()) {
            said.put(m.group(1), m.group(2).strip());
        }
        return said;
    }

    /** {@code DFF_Secret} in the environment of the live process {@code pid}, or null. */
    public static String fromEnvironment(long pid) throws IOException {
        byte[] environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
            if (entry.startsWith(RunSecret.ENV + "=")) {
                return entry.substring(RunSecret.ENV.length() + 1);
            }
        }
        return null;
    }

    /** The command lines of every process of this machine that contain {@code text}. */
    public static List<String> commandLinesContaining(String text) {
        List<String> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> {
            String line = p.info().commandLine().orElse("") + " "
                    + String.join(" ", p.info().arguments().orElse(new String[0]));
            if (line.contains(text)) {
                found.add(p.pid() + ": " + line);
            }
        });
        return found;
    }
}
