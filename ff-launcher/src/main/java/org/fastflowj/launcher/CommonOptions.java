package org.fastflowj.launcher;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import picocli.CommandLine.Option;

/**
 * The config option both commands take, and loading it with the error shape of {@link ConfigException}.
 *
 * <p>Threading: filled by picocli on the main thread, then only read.
 */
final class CommonOptions {
    static final int EXIT_BAD_CONFIG = 2;

    @Option(
            names = {"-c", "--config"},
            required = true,
            paramLabel = "FILE",
            description = "The application's config (JSON, see docs/config.md).")
    Path config;

    /** The config (read ahead by {@code prefetch} when it could), or null after printing why it cannot be used. */
    DffConfig load(PrintWriter err, Prefetch prefetch) {
        try {
            return prefetch.config(config);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return null;
        }
    }

    /** The config's absolute path, as the groups are told it. */
    Path absoluteConfig() {
        return config.toAbsolutePath().normalize();
    }
}
