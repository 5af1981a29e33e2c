package org.fastflowj.examples.filesearch;

import java.io.OutputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.fastflowj.core.Pipeline;
import org.fastflowj.examples.AppRun;
import org.fastflowj.examples.OptionChecks;
import org.fastflowj.examples.RunOptionsMixin;
import org.fastflowj.examples.StatsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code filesearch --dirs d1,d2 --word Hello [--a2a]}: prints {@code path:lineNumber:line} for every line
 * containing the word in the text files under the directories, sorted by path then line number.
 *
 * <p>Exit codes: 0 when the search ran (with or without matches, unlike grep's 1 for none), 1 when a node
 * failed, 2 for a bad command line (missing or unreadable directory, unknown option, ...).
 */
@Command(
        name = "filesearch",
        sortOptions = false,
        description = {
            "Searches the files under the directories for lines containing WORD (the paper's Fig. 2).",
            "Prints path:lineNumber:line per match, sorted by path then line number,"
                    + " as grep -rnIF WORD DIR... | LC_ALL=C sort -t: -k1,1 -k2,2n.",
            "Default: Reader -> Worker -> Writer pipeline; --a2a: 2 Readers x 3 Workers all-to-all -> Writer."
        })
public final class FileSearchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--dirs",
            required = true,
            split = ",",
            paramLabel = "DIR",
            description = "Comma-separated directories to search recursively.")
    private List<String> dirs;

    @Option(
            names = "--word",
            required = true,
            paramLabel = "WORD",
            description = "The word to look for (a plain substring, case-sensitive).")
    private String word;

    @Option(names = "--a2a", description = "Use the all-to-all version (2 Readers x 3 Workers).")
    private boolean allToAll;

    @Mixin
    private RunOptionsMixin common;

    @Mixin
    private StatsOption stats;

    private final OutputStream out;

    /** A command printing its results to {@code System.out}. */
    public FileSearchCommand() {
        this(System.out);
    }

    /** A command printing its results to {@code out}. */
    public FileSearchCommand(OutputStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (word.isEmpty()) {
            throw usageError("--word must not be empty: every line contains the empty string");
        }
        List<Path> roots = directories();
        FileSearch.registerWireFormats();
        Pipeline search = allToAll ? FileSearch.allToAll(roots, word, out) : FileSearch.pipeline(roots, word, out);
        return AppRun.run(spec, search, common.verbose(), stats.requested());
    }

    /** The --dirs arguments as paths, each checked to be an existing directory. */
    private List<Path> directories() {
        List<Path> roots = new ArrayList<>();
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                throw usageError("--dirs: empty directory name in '" + String.join(",", dirs) + "'");
            }
            Path root;
            try {
                root = Path.of(dir);
            } catch (InvalidPathException e) {
                throw usageError("--dirs: invalid directory name '" + dir + "': " + e.getMessage());
            }
            OptionChecks.requireDirectory(spec, "--dirs", root);
            roots.add(root);
        }
        if (roots.isEmpty()) {
            throw usageError("--dirs: no directory given");
        }
        return roots;
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
