package org.fastflowj.launcher.process;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.launcher.hosts.GroupLaunch;

/**
 * One started group: its process, the two threads that copy its output line by line to a
 * {@link GroupOutput}, and the ways to stop it.
 *
 * <p>A group's input is the launcher's lifeline: it stays open while the launcher runs, and its end
 * (closed by the launcher, or by the kernel when the launcher dies) stops the group, through
 * {@link LocalWatch} for a local group and {@link RemoteScript} for a remote one.
 *
 * <p>Stopping is two-step: {@link #terminate()} asks (SIGTERM to the whole local process tree; for an
 * ssh client, the end of its input, which makes {@link RemoteScript} stop the remote tree), and
 * {@link #kill()} insists (SIGKILL to every process of the tree, including those seen at
 * {@code terminate} time that have since been re-parented away from it). An srun step is signalled
 * through SLURM instead ({@link org.fastflowj.launcher.hosts.SlurmStep}).
 *
 * <p>Threading: started and stopped from the launcher's threads (the run loop, the shutdown hook);
 * the pump threads only feed the output. {@link #exit()} completes once the process has exited
 * <em>and</em> both streams are drained, so the last lines are known when it completes.
 */
final class GroupProcess {
    private static final long PUMP_DRAIN_MS = 2_000;

    /** util-linux's setsid, or null where there is none (the groups then share the launcher's session). */
    private static final String SETSID = findOnPath("setsid");

    private final GroupLaunch launch;
    private final Process process;
    private final CompletableFuture<Integer> exit;
    private volatile List<ProcessHandle> treeAtTerminate = List.of();

    private GroupProcess(GroupLaunch launch, Process process, GroupOutput output) {
        this.launch = launch;
        this.process = process;
        Thread outPump = pump(process.getInputStream(), output, false);
        Thread errPump = pump(process.getErrorStream(), output, true);
        this.exit = process.onExit().thenApplyAsync(p -> {
            closeInput(); // a local group's watcher then ends too
            join(outPump);
            join(errPump);
            return p.exitValue();
        });
    }

    /**
     * Starts the group's command, handing it the run's {@code secret} (null: none) and the key that seals
     * its news to the launcher ({@link ControlLine}), and keeping its input open: an ssh client's carries
     * the secret and the key and then stays open; a local group's is watched by {@link LocalWatch}, which
     * stops the group when the launcher is gone.
     *
     * <p>A local group or ssh client starts in a session of its own ({@code setsid}, which keeps the pid:
     * a child of the launcher is no process-group leader, so it does not fork). Otherwise it would be in
     * the launcher's process group, and a Ctrl-C (or Ctrl-\, Ctrl-Z) on the terminal would reach every
     * group at once: they would die of SIGINT on their own, racing with the launcher's stop, and the
     * first to exit would be reported as a failure. In a session of its own only the launcher gets it, and
     * stops them all.
     * An srun client is left in the launcher's group: its SIGINT only prints the step's state.
     *
     * <p>{@code checkpoints} (null: the config has none) puts where the group's checkpoints start in its
     * environment ({@code DFF_Resume}, {@code DFF_CheckpointsAfter}; for an ssh client through its input).
     *
     * @param grace how long a local group has between SIGTERM and SIGKILL once the launcher is gone
     */
    static GroupProcess start(
            GroupLaunch launch,
            GroupOutput output,
            String secret,
            String controlKey,
            Duration grace,
            CheckpointStart checkpoints)
            throws IOException {
        List<String> argv = launch.argv();
        boolean local = !launch.remote() && launch.slurmStep() == null;
        if (local) {
            requireProgram(argv.get(0));
            argv = LocalWatch.wrap(argv, grace);
        }
        if (launch.slurmStep() == null && SETSID != null) {
            argv = Stream.concat(Stream.of(SETSID), argv.stream()).toList();
        }
        ProcessBuilder builder = new ProcessBuilder(argv);
        if (!launch.remote()) {
            // A local group reads them directly; srun exports its environment to the step.
            builder.environment().put(ControlLine.ENV, controlKey);
            if (secret != null) {
                builder.environment().put(RunSecret.ENV, secret);
            }
            // Inherited from the launcher's own environment, they would resume a first start.
            builder.environment().remove(DFF.RESUME_ENV);
            builder.environment().remove(DFF.CHECKPOINTS_AFTER_ENV);
            if (checkpoints != null) {
                if (checkpoints.resumes()) {
                    builder.environment().put(DFF.RESUME_ENV, Long.toString(checkpoints.resumeFrom()));
                }
                builder.environment().put(DFF.CHECKPOINTS_AFTER_ENV, Long.toString(checkpoints.numberedAfter()));
            }
        }
        Process process = builder.start();
        if (launch.remote()) {
            // RemoteScript's first lines, whether or not there is a secret or a checkpoint: all are always read.
            try {
                Writer input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
                input.write(RemoteScript.input(secret, controlKey, checkpoints));
                input.flush();
            } catch (IOException e) {
                // The ssh client exited at once: its exit status says why, like any other group's.
            }
        } else if (!local) {
            process.getOutputStream().close();
        }
        return new GroupProcess(launch, process, output);
    }

    /**
     * The error {@link ProcessBuilder#start} would give for a program that does not exist: once the
     * watcher runs it, the shell would only report it as exit code 127.
     */
    private static void requireProgram(String program) throws IOException {
        boolean found = program.contains("/") ? Files.isExecutable(Path.of(program)) : findOnPath(program) != null;
        if (!found) {
            throw new IOException("Cannot run program \"" + program + "\": no such executable file");
        }
    }

    GroupLaunch launch() {
        return launch;
    }

    long pid() {
        return process.pid();
    }

    /** The exit code (128 + n for a process ended by signal n), once the output is drained too. */
    CompletableFuture<Integer> exit() {
        return exit;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Asks the group to stop: SIGTERM to its process tree, end of input for an ssh client, SIGTERM through
     * SLURM to an srun step.
     */
    void terminate() {
        // Remember the tree now: once the parent dies its children are re-parented and lost from view.
        treeAtTerminate = Stream.concat(Stream.of(process.toHandle()), process.descendants())
                .toList();
        if (launch.slurmStep() != null) {
            // srun itself would SIGKILL the step at once (see SlurmStep); it is signalled only when SLURM
            // does not know the step, which then has not started or has already ended.
            if (!launch.slurmStep().signal("TERM")) {
                treeAtTerminate.forEach(ProcessHandle::destroy);
            }
            return;
        }
        if (launch.remote()) {
            // An ssh client already gone closed its connection, which stops the remote side as well.
            closeInput();
            // The remote tree is stopped by its wrapper; SIGTERM to the ssh client would cut the connection
            // before the group's last lines and exit status came back.
            return;
        }
        treeAtTerminate.forEach(ProcessHandle::destroy);
    }

    /**
     * SIGKILL to every process of the tree, now and as seen by {@link #terminate()}, and, for an srun
     * step, to the step's processes, which a killed srun would leave running.
     */
    void kill() {
        if (launch.slurmStep() != null) {
            launch.slurmStep().signal("KILL");
        }
        Stream.concat(treeAtTerminate.stream(), Stream.concat(process.descendants(), Stream.of(process.toHandle())))
                .filter(ProcessHandle::isAlive)
                .forEach(ProcessHandle::destroyForcibly);
    }

    private void closeInput() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // The reader is gone: the end of the pipe was all there was to say.
        }
    }

    private static Thread pump(InputStream stream, GroupOutput output, boolean fromStderr) {
        Thread thread = new Thread(
                () -> {
                    // Lines end at '\n' only: a '\r' is the group's text (a CRLF file's line, as grep prints
                    // it), which BufferedReader.readLine would take as a line end and drop.
                    try (Reader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        StringBuilder line = new StringBuilder();
                        for (int c = reader.read(); c >= 0; c = reader.read()) {
                            if (c == '\n') {
                                output.line(line.toString(), fromStderr);
                                line.setLength(0);
                            } else {
                                line.append((char) c);
                            }
                        }
                        if (line.length() > 0) {
                            output.line(line.toString(), fromStderr); // a last line with no '\n'
                        }
                    } catch (IOException e) {
                        // The stream closes when the process is killed: the lines so far are all there is.
                    }
                    output.ended(fromStderr);
                },
                "ff-launcher-pump-" + (fromStderr ? "err" : "out"));
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static String findOnPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable)
                .map(Path::toString)
                .findFirst()
                .orElse(null);
    }

    private static void join(Thread thread) {
        try {
            // Bounded: a daemon the group left behind may hold the stream open long after the group ended.
            thread.join(PUMP_DRAIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
