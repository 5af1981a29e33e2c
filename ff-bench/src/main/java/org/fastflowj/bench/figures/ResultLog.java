package org.fastflowj.bench.figures;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run's results as JSON lines: one {@code run} line (machine, JDK, commit, scale), then one {@code point}
 * line per measured repetition and one {@code note} line per figure remark (what was skipped and why). The
 * points are also kept in memory for the plots.
 */
final class ResultLog implements AutoCloseable {
    /** One repetition of one point of a figure's series. */
    record Point(String figure, String series, double x, int repetition, double value, String unit) {}

    private final BufferedWriter out;
    private final List<Point> points = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    ResultLog(Path file, Map<String, Object> run) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            out = Files.newBufferedWriter(
                    file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the results file " + file, e);
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", "run");
        line.putAll(run);
        write(line);
    }

    synchronized void point(String figure, String series, double x, int repetition, double value, String unit) {
        Point p = new Point(figure, series, x, repetition, value, unit);
        points.add(p);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", "point");
        line.put("figure", figure);
        line.put("series", series);
        line.put("x", x);
        line.put("rep", repetition);
        line.put("value", value);
        line.put("unit", unit);
        write(line);
    }

    synchronized void note(String figure, String text) {
        notes.add(figure + ": " + text);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", "note");
        line.put("figure", figure);
        line.put("text", text);
        write(line);
    }

    synchronized List<Point> points(String figure) {
        return points.stream().filter(p -> p.figure().equals(figure)).toList();
    }

    synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    private void write(Map<String, Object> fields) {
        try {
            out.write(json(fields));
            out.newLine();
            out.flush(); // a run cut short keeps every line written so far
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a result line", e);
        }
    }

    static String json(Map<String, Object> fields) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append(quote(e.getKey())).append(':');
            Object v = e.getValue();
            if (v instanceof Double d) {
                if (!Double.isFinite(d)) {
                    b.append("null");
                } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                    b.append((long) d.doubleValue()); // sizes and counts stay exact: 1048576, not 1.04858e+06
                } else {
                    b.append(String.format(Locale.ROOT, "%.6g", d));
                }
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                b.append(quote(String.valueOf(v)));
            }
        }
        return b.append('}').toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the results file", e);
        }
    }
}
