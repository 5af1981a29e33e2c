package org.fastflowj.examples.filesearch;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** The matching lines of one file, in line order; a Worker sends one per file with at least one match. */
public record FileMatches(Path file, List<MatchedLine> lines) {
    public FileMatches {
        Objects.requireNonNull(file, "file");
        lines = List.copyOf(lines);
    }
}
