package org.fastflowj.dist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A config file that cannot be read or does not describe a valid deployment.
 *
 * <p>Every message has one shape, so that editors and terminals can jump to the culprit:
 *
 * <pre>{@code
 * <source>:<line>:<column>: <json path>: <what is wrong>; <what is expected>
 * }</pre>
 *
 * The {@code <line>:<column>} part is left out when no place in the file is to blame (a file that
 * cannot be read, a group the program uses but the config does not define), and the JSON path (such
 * as {@code groups[2].endpoint}) is left out when no single value is to blame. Lines and columns
 * count from 1. A file with several problems gets one such line for each ({@link #problems()}).
 *
 * <p>It extends {@link IllegalArgumentException} because a bad config is bad input to the program,
 * like an illegal building-block layout.
 *
 * <p>Threading: immutable, safe to share.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final transient List<ConfigException> problems;

    /**
     * @param source the config file name (or the name given to {@link DffConfig#parse})
     * @param line the 1-based line to blame, or 0 when no place in the file is to blame
     * @param column the 1-based column to blame, or 0 with {@code line}
     * @param detail the rest of the message: JSON path, what is wrong, what is expected
     */
    public ConfigException(String source, int line, int column, String detail) {
        this(source, line, column, detail, null);
    }

    /** As {@link #ConfigException(String, int, int, String)}, keeping the cause (an I/O error). */
    public ConfigException(String source, int line, int column, String detail, Throwable cause) {
        super(prefix(source, line, column) + detail, cause);
        this.source = source;
        this.line = line;
        this.column = column;
        this.problems = List.of(this);
    }

    private ConfigException(List<ConfigException> sorted) {
        super(sorted.stream().map(ConfigException::getMessage).collect(Collectors.joining("\n")));
        ConfigException first = sorted.get(0);
        this.source = first.source;
        this.line = first.line;
        this.column = first.column;
        this.problems = List.copyOf(sorted);
    }

    /**
     * Every problem of one file as one exception: its message has one line per problem, in file order
     * (those with no place last); its place is the first problem's.
     */
    static ConfigException all(List<ConfigException> problems) {
        if (problems.size() == 1) {
            return problems.get(0);
        }
        List<ConfigException> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingInt((ConfigException e) -> e.line > 0 ? e.line : Integer.MAX_VALUE)
                .thenComparingInt(e -> e.column));
        return new ConfigException(sorted);
    }

    /** Each problem found, in file order: this exception alone, or every problem of the file. */
    public List<ConfigException> problems() {
        return problems;
    }

    /** The config file name (or the name given to {@link DffConfig#parse}). */
    public String source() {
        return source;
    }

    /** The 1-based line of the culprit, or 0 when no place in the file is to blame. */
    public int line() {
        return line;
    }

    /** The 1-based column of the culprit, or 0 when no place in the file is to blame. */
    public int column() {
        return column;
    }

    private static String prefix(String source, int line, int column) {
        return line > 0 ? source + ":" + line + ":" + column + ": " : source + ": ";
    }
}
