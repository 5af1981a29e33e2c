package org.fastflowj.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The checks of the applications' options, before anything runs: each message names the option, says
 * what a path is when it is the wrong kind ({@code --db: data is a directory; expected a file}), not only
 * that something could not be opened, and gives a number's bounds ({@code --gap-open must be >= 0, got -1}).
 *
 * <p>Threading: stateless.
 */
public final class OptionChecks {
    private OptionChecks() {}

    /** {@code file} exists, is a regular file and can be read. */
    public static void requireReadableFile(CommandSpec spec, String option, Path file) {
        if (Files.isDirectory(file)) {
            throw usageError(spec, option + ": " + file + " is a directory; expected a file");
        }
        if (!Files.exists(file)) {
            throw usageError(spec, option + ": file not found: " + file);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw usageError(spec, option + ": not a readable file: " + file);
        }
    }

    /** {@code folder} exists and is a directory. */
    public static void requireDirectory(CommandSpec spec, String option, Path folder) {
        if (!Files.exists(folder)) {
            throw usageError(spec, option + ": directory not found: " + folder);
        }
        if (!Files.isDirectory(folder)) {
            throw usageError(spec, option + ": " + folder + " is a file; expected a directory");
        }
    }

    /** {@code file} can be created or replaced: it is no directory, and its directory exists. */
    public static void requireWritableFile(CommandSpec spec, String option, Path file) {
        if (Files.isDirectory(file)) {
            throw usageError(spec, option + ": " + file + " is a directory; expected a file to write");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw usageError(spec, option + ": cannot write " + file + ": directory not found: " + parent);
        }
    }

    /** {@code folder} is a directory or can be created as one: it is not a file. */
    public static void requireDirectoryToWrite(CommandSpec spec, String option, Path folder) {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw usageError(spec, option + ": " + folder + " is a file; expected a directory");
        }
    }

    /** {@code value} of {@code option} is within {@code min..max}, else a message naming the option. */
    public static void requireInRange(CommandSpec spec, String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw usageError(
                    spec,
                    option + " must be "
                            + (max == Integer.MAX_VALUE || max == Long.MAX_VALUE
                                    ? ">= " + min
                                    : "between " + min + " and " + max)
                            + ", got " + value);
        }
    }

    private static ParameterException usageError(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
