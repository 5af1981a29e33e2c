package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.Main;
import org.fastflowj.launcher.apps.CheckedGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another user of the machine redirects the cache folder: {@code TMPDIR/fastflowj-root} is their symbolic
 * link to a folder anyone can write, where they planted links to a file of the victim's under the names
 * a launcher without these checks would write. With {@code fs.protected_symlinks=0} the kernel follows such links; the
 * launcher must not. Runs as root (it needs a second user and the sysctl); skipped elsewhere.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CacheFolderLinkLaunchTest {
    private static final String ATTACKER = "ffj-cache-attacker";
    private static final Path PROTECTED_SYMLINKS = Path.of("/proc/sys/fs/protected_symlinks");
    /** The most pids to plant a link for (Linux's default pid_max is 32768). */
    private static final int MAX_PLANTED = 65_536;

    @TempDir
    Path dir;

    @Test
    void shouldRunWithoutACacheAndWriteNothingThroughALinkedCacheFolder() throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root"), "needs root: a second user and a sysctl");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv to act as the other user");
        boolean userCreated = ensureUser();
        String protectedBefore = Files.readString(PROTECTED_SYMLINKS).strip();
        Path shared = null;
        Path open = null;
        Process launcher = null;
        try {
            if (!protectedBefore.equals("0")) {
                assumeTrue(
                        exec(List.of("sysctl", "-w", "fs.protected_symlinks=0")) == 0,
                        "fs.protected_symlinks cannot be set to 0 here (a container without the right)");
            }
            // TMPDIR as /tmp is: everyone's, sticky; and a folder anyone can write, owned by root as /var/tmp is
            shared = Files.createTempDirectory(Path.of("/tmp"), "ffj-tmpdir-");
            open = Files.createTempDirectory(Path.of("/tmp"), "ffj-open-");
            assertThat(exec(List.of("chmod", "1777", shared.toString(), open.toString())))
                    .isZero();
            Path victim = Files.writeString(dir.resolve("victim.txt"), "the victim's own\n");
            List<String> command = checkedGroupCommand();
            Path config = Launcher.config(dir, "127.0.0.1");
            String groupsFile = GroupCheckCache.of(command, config, scratchCache())
                    .orElseThrow()
                    .file()
                    .getFileName()
                    .toString();
            int pidMax = Integer.parseInt(
                    Files.readString(Path.of("/proc/sys/kernel/pid_max")).strip());
            assumeTrue(pidMax <= MAX_PLANTED, "pid_max " + pidMax + ": too many pids to plant a link for each");

            // a link under every name the launcher or one of its groups could write, whatever its pid
            assertThat(asAttacker(
                            "symlink($ARGV[1], \"$ARGV[0]/fastflowj-root\") or die \"link: $!\";"
                                    + " for my $p (1 .. $ARGV[3]) { for my $f (@ARGV[4 .. $#ARGV]) {"
                                    + " symlink($ARGV[2], \"$ARGV[1]/$f.$p.tmp\") or die \"plant $f.$p: $!\" } }",
                            shared.toString(),
                            open.toString(),
                            victim.toString(),
                            Integer.toString(pidMax),
                            groupsFile))
                    .as("the other user plants the links")
                    .isZero();
            List<Path> planted = list(open);

            List<String> argv = new ArrayList<>(Launcher.javaCommand());
            argv.add(1, "-Djava.io.tmpdir=" + shared);
            argv.add(Main.class.getName());
            argv.addAll(List.of("run", "-c", config.toString(), "--no-status", "--timeout", "60s", "--"));
            argv.addAll(command);
            launcher = new ProcessBuilder(argv).redirectErrorStream(true).start();
            launcher.getOutputStream().close();
            String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();

            assertThat(launcher.exitValue()).as(output).isZero();
            assertThat(victim).hasContent("the victim's own");
            assertThat(list(open))
                    .as("nothing written in the other user's folder")
                    .isEqualTo(planted);
            assertThat(output)
                    .contains("ff-launcher: warning: the cache folder " + shared.resolve("fastflowj-root")
                            + " is a symbolic link")
                    .contains("running without a cache")
                    .contains("[A] group with --DFF_GName=A", "[B] group with --DFF_GName=B")
                    .contains("[C] group with --DFF_GName=C");
            assertThat(victim).hasContent("the victim's own");
            assertThat(list(open))
                    .as("nothing written in the other user's folder")
                    .isEqualTo(planted);
            assertThat(Files.isSymbolicLink(shared.resolve("fastflowj-root"))).isTrue();
            assertThat(list(shared)).containsExactly(shared.resolve("fastflowj-root"));
        } finally {
            if (launcher != null) {
                launcher.descendants().forEach(ProcessHandle::destroyForcibly);
                launcher.destroyForcibly();
            }
            if (!protectedBefore.equals(Files.readString(PROTECTED_SYMLINKS).strip())) {
                exec(List.of("sysctl", "-w", "fs.protected_symlinks=" + protectedBefore));
            }
            for (Path folder : new Path[] {shared, open}) {
                if (folder != null) {
                    exec(List.of("rm", "-rf", folder.toString()));
                }
            }
            if (userCreated) {
                exec(List.of("userdel", ATTACKER));
            }
        }
    }

    /** Creates the other user unless it exists; true when this test made it. */
    private static boolean ensureUser() throws Exception {
        if (exec(List.of("id", "-u", ATTACKER)) == 0) {
            return false;
        }
        int code = exec(List.of("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER));
        assumeTrue(code == 0, "useradd " + ATTACKER + " failed (exit " + code + "): no second user to plant links");
        return true;
    }

    /** Runs perl {@code script} with {@code args} as the other user, with none of root's groups. */
    private static int asAttacker(String script, String... args) throws Exception {
        String uid = output(List.of("id", "-u", ATTACKER));
        String gid = output(List.of("id", "-g", ATTACKER));
        List<String> argv = new ArrayList<>(
                List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "perl", "-e", script));
        argv.addAll(List.of(args));
        return exec(argv);
    }

    /** A cache of the test's own, only to learn the file name the launcher keeps the groups under. */
    private LauncherCache scratchCache() {
        return new LauncherCache(dir.resolve("scratch-cache"), "root", new PrintWriter(new StringWriter(), true));
    }

    private static List<Path> list(Path folder) throws IOException {
        try (Stream<Path> entries = Files.list(folder)) {
            List<Path> all = new ArrayList<>(entries.filter(p -> Files.exists(p, LinkOption.NOFOLLOW_LINKS))
                    .toList());
            all.sort(Comparator.naturalOrder());
            return all;
        }
    }

    private static int exec(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).inheritIO().start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError(argv + " did not end within 30 s");
            }
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }

    private static String output(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        try {
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(argv + ": " + text).isZero();
            return text;
        } finally {
            p.destroyForcibly();
        }
    }

    /** A java command on a jar of the group and its sealing: the launcher caches for jar commands only. */
    private List<String> checkedGroupCommand() throws IOException {
        Path jar = dir.resolve("checked-group.jar");
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file)) {
            for (Class<?> c : List.of(
                    CheckedGroup.class,
                    ControlLine.class,
                    ControlLine.Sealer.class,
                    Class.forName(ControlLine.class.getName() + "$OfThisProcess"))) {
                String entry = c.getName().replace('.', '/') + ".class";
                try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
                    out.putNextEntry(new JarEntry(entry));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        List<String> command = new ArrayList<>(Launcher.javaCommand().subList(0, 4));
        command.addAll(List.of("-cp", jar.toString(), CheckedGroup.class.getName()));
        return command;
    }
}
