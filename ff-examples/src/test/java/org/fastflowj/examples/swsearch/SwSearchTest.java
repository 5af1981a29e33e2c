package org.fastflowj.examples.swsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SwSearchTest {
    private static final int NEG = Integer.MIN_VALUE / 4;

    @TempDir
    Path dir;

    private Path db;
    private Path query;

    @BeforeEach
    void generate() {
        db = dir.resolve("db.fasta");
        query = dir.resolve("q.fasta");
        AppRunner gen = AppRunner.run(
                "swsearch-gen",
                "--sequences",
                "150",
                "--seed",
                "9",
                "--output",
                db.toString(),
                "--query-output",
                query.toString());
        assertThat(gen.exitCode).as(gen.toString()).isZero();
    }

    /** The reference: Gotoh's three full matrices, E and F starting at minus infinity. */
    private static int gotoh(String a, String b, int open, int extend) {
        int n = a.length();
        int m = b.length();
        int[][] h = new int[n + 1][m + 1];
        int[][] e = new int[n + 1][m + 1];
        int[][] f = new int[n + 1][m + 1];
        int best = 0;
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= m; j++) {
                if (i == 0 || j == 0) {
                    e[i][j] = NEG;
                    f[i][j] = NEG;
                    continue;
                }
                e[i][j] = Math.max(e[i][j - 1] - extend, h[i][j - 1] - open - extend);
                f[i][j] = Math.max(f[i - 1][j] - extend, h[i - 1][j] - open - extend);
                int s = Blosum50.score(Blosum50.index(a.charAt(i - 1)), Blosum50.index(b.charAt(j - 1)));
                h[i][j] = Math.max(Math.max(0, h[i - 1][j - 1] + s), Math.max(e[i][j], f[i][j]));
                best = Math.max(best, h[i][j]);
            }
        }
        return best;
    }

    /** A minimal FASTA reading for the reference: [id, sequence] per record. */
    private static List<String[]> records(Path file) throws IOException {
        List<String[]> records = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith(">")) {
                records.add(new String[] {line.substring(1).split(" ")[0], ""});
            } else {
                String[] last = records.get(records.size() - 1);
                last[1] += line.trim();
            }
        }
        return records;
    }

    @ParameterizedTest
    @CsvSource({"10, 2", "5, 2"})
    void shouldPrintTheTopHitsOfASequentialSearch(int open, int extend) throws IOException {
        String q = records(query).get(0)[1];
        List<String> expected = new ArrayList<>();
        List<String[]> subjects = records(db);
        List<int[]> scored = new ArrayList<>();
        for (int i = 0; i < subjects.size(); i++) {
            scored.add(new int[] {gotoh(q, subjects.get(i)[1], open, extend), i});
        }
        scored.sort(Comparator.<int[]>comparingInt(s -> -s[0]).thenComparingInt(s -> s[1]));
        for (int r = 0; r < 15; r++) {
            int[] s = scored.get(r);
            expected.add((r + 1) + "\t" + s[0] + "\t" + subjects.get(s[1])[0]);
        }

        AppRunner run = AppRunner.run(
                "swsearch",
                "--query",
                query.toString(),
                "--db",
                db.toString(),
                "--top",
                "15",
                "--workers",
                "3",
                "--gap-open",
                Integer.toString(open),
                "--gap-extend",
                Integer.toString(extend));

        assertThat(run.exitCode).as(run.toString()).isZero();
        List<String> printed = run.out
                .lines()
                .filter(l -> !l.startsWith("swsearch:"))
                .map(l -> l.substring(0, l.lastIndexOf('\t')))
                .toList();
        assertThat(printed).isEqualTo(expected);
        assertThat(run.out)
                .containsPattern(
                        "swsearch: 150 sequences, \\d+ residues, query \\d+ residues in [0-9.]+ s: [0-9.]+ GCUPS");
    }

    @Test
    void shouldHaveASymmetricBlosum50() {
        for (int a = 0; a < Blosum50.ORDER.length(); a++) {
            for (int b = 0; b < Blosum50.ORDER.length(); b++) {
                assertThat(Blosum50.score(a, b)).isEqualTo(Blosum50.score(b, a));
            }
        }
        assertThat(Blosum50.score(Blosum50.index('W'), Blosum50.index('W'))).isEqualTo(15);
    }

    @Test
    void shouldNameTheFileAndLineOfAMalformedRecordAndExitTwo() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.fasta"), ">ok one\nACDEFG\n>two\nACD3FG\n");

        AppRunner run = AppRunner.run("swsearch", "--query", query.toString(), "--db", bad.toString());

        assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
        assertThat(run.err)
                .isEqualTo("swsearch: " + bad + ":4: invalid residue '3' at column 4" + System.lineSeparator());
    }

    @Test
    void shouldRejectSequenceDataBeforeTheFirstHeaderInTheQuery() throws IOException {
        Path bad = Files.writeString(dir.resolve("q-bad.fasta"), "ACDEFG\n>late\nAC\n");

        AppRunner run = AppRunner.run("swsearch", "--query", bad.toString(), "--db", db.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains(bad + ":1: sequence data before the first '>' header");
    }

    @Test
    void shouldNameAMissingDatabaseAndExitTwo() {
        Path missing = dir.resolve("none.fasta");

        AppRunner run = AppRunner.run("swsearch", "--query", query.toString(), "--db", missing.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--db: file not found: " + missing);
    }

    @Test
    void shouldNameADirectoryGivenAsTheDatabase() {
        AppRunner run = AppRunner.run("swsearch", "--query", query.toString(), "--db", dir.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--db: " + dir + " is a directory; expected a file");
    }

    @Test
    void shouldNameTheFlagAtFault() {
        AppRunner run =
                AppRunner.run("swsearch", "--query", query.toString(), "--db", query.toString(), "--gap-open", "-1");
        AppRunner top = AppRunner.run("swsearch", "--query", query.toString(), "--db", query.toString(), "--top", "0");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("swsearch: --gap-open must be >= 0, got -1");
        assertThat(top.exitCode).isEqualTo(2);
        assertThat(top.err).contains("swsearch: --top must be >= 1, got 0");
    }
}
