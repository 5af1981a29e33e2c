package org.fastflowj.launcher;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Function;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import picocli.CommandLine.Option;

/**
 * The config option both commands take, and loading it with the error shape of {@link ConfigException}.
 *
 * <p>Threading: filled by picocli on the main thread, then only read.
 */
public final class CommonOptions {
    public static final int EXIT_BAD_CONFIG = 2;

    @Option(
            names = {"-c", "--config"},
            required = true,
            paramLabel = "FILE",
            description = "The application's config (JSON, see docs/config.md).")
    Path config;

    /**
     * The config as {@code loader} reads it (a command's loader may have read it ahead), or null after
     * printing why it cannot be used.
     */
    public DffConfig load(PrintWriter err, Function<Path, DffConfig> loader) {
        try {
            return loader.apply(config);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return null;
        }
    }

    /** The config's absolute path, as the groups are told it. */
    public Path absoluteConfig() {
        return config.toAbsolutePath().normalize();
    }
}
