package org.fastflowj.launcher.commands;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.launcher.hosts.LocalHosts;
import org.fastflowj.launcher.process.RunSecret;

/**
 * What {@code run} and {@code check} read before they start anything, read on a second thread while
 * picocli builds its model of the commands on the main thread: the config, this machine's names and
 * addresses ({@link LocalHosts}), and the secure random generator's seeding (the first
 * {@link RunSecret#generate} call). Picocli's reflection and the config with the rest take the launcher
 * about as long each on the way to its first group's start; on two cores the two overlap
 * ({@code -Xlog:class+load} time stamps show it; docs/benchmarks.md, "Time to a first result").
 *
 * <p>The config's path is guessed from the arguments ({@code -c FILE}, {@code --config FILE},
 * {@code --config=FILE}) before picocli parses them; {@link #config} gives the prefetched config only when
 * picocli's path is that one, and reads the file itself otherwise, so a wrong guess costs a file read
 * and nothing else. A config that fails to load fails with the same exception as on the main thread.
 *
 * <p>Threading: made and read on the main thread; the prefetch thread writes the fields, and the main
 * thread reads them only after {@link Thread#join}, which orders the writes before the reads.
 */
public final class Prefetch {
    private final Path configPath;
    private final Thread thread;
    private DffConfig config;
    private RuntimeException configFailure;
    private LocalHosts localHosts;

    private Prefetch(Path configPath, boolean started) {
        this.configPath = configPath;
        this.thread = started ? new Thread(this::fetch, "ff-launcher-prefetch") : null;
        if (thread != null) {
            thread.setDaemon(true); // a wrong guess naming a file that blocks must not keep the launcher alive
            thread.start();
        }
    }

    /** Starts reading what {@code args}, the launcher's arguments, will need. */
    public static Prefetch start(String[] args) {
        return new Prefetch(guessConfig(args), true);
    }

    /** No prefetch: everything is read when asked for. */
    public static Prefetch none() {
        return new Prefetch(null, false);
    }

    /** The config at {@code path}, prefetched when it was guessed right; as {@link DffConfig#load} otherwise. */
    DffConfig config(Path path) {
        if (thread == null || !path.equals(configPath)) {
            return DffConfig.load(path);
        }
        await();
        if (configFailure != null) {
            throw configFailure;
        }
        return config;
    }

    /** This machine's names and addresses. */
    LocalHosts localHosts() {
        if (thread == null) {
            return LocalHosts.detect();
        }
        await();
        return localHosts;
    }

    /**
     * The value of the first {@code -c}/{@code --config} option of a {@code run} or {@code check}
     * command line, or null when there is none before the application's command.
     */
    static Path guessConfig(String[] args) {
        if (args.length == 0 || !(args[0].equals("run") || args[0].equals("check"))) {
            return null;
        }
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            if (arg.equals("--")) {
                return null;
            } else if ((arg.equals("-c") || arg.equals("--config")) && i + 1 < args.length) {
                value = args[i + 1];
            } else if (arg.startsWith("--config=")) {
                value = arg.substring("--config=".length());
            }
            if (value != null) {
                try {
                    return Path.of(value);
                } catch (InvalidPathException e) {
                    return null; // picocli says what is wrong with it
                }
            }
        }
        return null;
    }

    private void fetch() {
        if (configPath != null) {
            try {
                config = DffConfig.load(configPath);
            } catch (RuntimeException e) {
                configFailure = e;
            }
        }
        localHosts = LocalHosts.detect();
        RunSecret.generate(); // seeds the JDK's SecureRandom, the main thread's secret is then quick to draw
    }

    private void await() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the reads below need the prefetch done; the interrupt is kept
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
