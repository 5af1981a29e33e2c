package org.fastflowj.bench.figures;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every figure of the evidence suite at {@link Scale#SMOKE} sizes, so that none of them rots: each must
 * measure points (the word counts checked equal to Flink's), log them as JSON lines and draw its plots. The
 * shaped-link rows need the emulated cluster (root, network namespaces) and are left out here, as the
 * figure's note says, and so is the whole of DF-Threads against MPI; {@code ClusterScriptTest} checks the
 * cluster itself. No speed is asserted.
 */
class FiguresSmokeTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldMeasureLogAndDrawEveryFigure(@TempDir Path out) throws Exception {
        Figures figures = new Figures();
        Path results = out.resolve("results.jsonl");

        int exit = new CommandLine(figures)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(
                        "--scale",
                        "smoke",
                        "--out",
                        out.toString(),
                        "--results",
                        results.toString(),
                        "--scratch",
                        out.resolve("scratch").toString());

        assertThat(figures.lastLog.notes()).noneMatch(note -> note.contains("failed"));
        assertThat(exit).isZero();
        for (Figure figure : Figures.ALL) {
            if (figure == MpiFigures.DFTHREADS_MPI) { // needs 4 cluster hosts and OpenMPI: says it skipped
                assertThat(figures.lastLog.notes()).anyMatch(note -> note.startsWith(figure.name() + ": skipped: "));
                continue;
            }
            assertThat(figures.lastLog.points(figure.name())).as(figure.name()).isNotEmpty();
            Path png = out.resolve(figure.name() + ".png");
            Path svg = out.resolve(figure.name() + ".svg");
            assertThat(Files.readAllBytes(png)).as(png.toString()).startsWith(PNG_MAGIC);
            assertThat(Files.readString(svg, StandardCharsets.UTF_8))
                    .as(svg.toString())
                    .contains("<svg");
        }
        assertThat(figures.lastLog.points("fig11-wordcount"))
                .extracting(ResultLog.Point::series)
                .contains("Flink MiniCluster", "FF-J one process", "FF-J source groups (loopback)");
        assertThat(figures.lastLog.notes()).anyMatch(note -> note.contains("shaped-link rows skipped"));
        assertThat(figures.lastLog.points("farm-2009"))
                .extracting(ResultLog.Point::series)
                .contains(
                        "FF-J farm round-robin",
                        "FF-J farm accelerator round-robin",
                        "FF-J farm accelerator on-demand",
                        "executor",
                        "round-robin farm shape without a run-time (bound)",
                        "on-demand farm shape without a run-time (bound)");

        List<String> lines = Files.readAllLines(results, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("{\"type\":\"run\"").contains("\"jdk\":", "\"commit\":", "\"cores\":");
        long pointLines =
                lines.stream().filter(l -> l.startsWith("{\"type\":\"point\"")).count();
        long pointsLogged = Figures.ALL.stream()
                .flatMap(f ->
                        List.of(f.name(), f.name() + "-ratio", f.name() + "-split", f.name() + "-speedup").stream())
                .mapToLong(name -> figures.lastLog.points(name).size())
                .sum();
        assertThat(pointLines).isEqualTo(pointsLogged);
    }

    @Test
    void shouldNameTheFiguresWhenAskedForOneThatDoesNotExist(@TempDir Path out) {
        Figures figures = new Figures();
        java.io.StringWriter err = new java.io.StringWriter();

        int exit = new CommandLine(figures)
                .setErr(new java.io.PrintWriter(err, true))
                .execute("--only", "fig99", "--out", out.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("no figure 'fig99'", "fig9-all-to-all");
    }

    @Test
    void shouldKeepWholeNumbersExactAndRoundTheRest() {
        java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("x", 4194304.0);
        fields.put("value", 1.0 / 3);
        fields.put("nan", Double.NaN);

        assertThat(ResultLog.json(fields)).isEqualTo("{\"x\":4194304,\"value\":0.333333,\"nan\":null}");
    }

    @Test
    void shouldWriteValidJsonForAwkwardText() {
        assertThat(ResultLog.quote("a \"b\"\\\n\u0001")).isEqualTo("\"a \\\"b\\\"\\\\\\n\\u0001\"");
    }
}
