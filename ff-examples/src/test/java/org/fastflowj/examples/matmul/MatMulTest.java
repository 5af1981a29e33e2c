package org.fastflowj.examples.matmul;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.DFF;
import org.fastflowj.examples.Main;
import org.fastflowj.patterns.MacroDataFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MatMulTest {
    /** Exit code, standard output and standard error of one run of the examples' command line. */
    record Run(int exitCode, String out, String err) {}

    /**
     * As {@code AppRunner.run}, but without its serialization check: a macro data-flow's tasks are code,
     * which never crosses groups (the pattern runs inside one process).
     */
    static Run run(String... args) {
        DFF.reset();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            var commandLine = Main.commandLine(out);
            commandLine.setErr(new PrintWriter(err, true));
            int code = commandLine.execute(args);
            return new Run(code, bytes.toString(StandardCharsets.UTF_8), err.toString());
        }
    }

    @ParameterizedTest
    @CsvSource({"216, 8", "96, 32", "40, 5"})
    void shouldEqualTheSequentialBlockedProductBitForBit(int n, int block) {
        BlockedMatrix a = BlockedMatrix.random(n, block, 7), b = BlockedMatrix.random(n, block, 8);
        BlockedMatrix parallel = BlockedMatrix.zeros(n, block), sequential = BlockedMatrix.zeros(n, block);

        try (MacroDataFlow mdf = new MacroDataFlow(2, 64)) {
            parallel.addProduct(mdf, a, b);
        }
        sequential.addProductSequential(a, b);

        assertThat(parallel.bitEqual(sequential)).isTrue();
        assertThat(parallel.checksum()).isEqualTo(sequential.checksum()).isNotZero();
    }

    @Test
    void shouldPrintTheSequentialChecksumAndCheckItBitForBit() {
        Run run = run("matmul", "--n", "216", "--block", "8", "--workers", "2", "--seed", "3", "--check");

        BlockedMatrix expected = BlockedMatrix.zeros(216, 8);
        expected.addProductSequential(BlockedMatrix.random(216, 8, 3), BlockedMatrix.random(216, 8, 4));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .containsPattern("time: [0-9.]+ s for n=216 block 8 \\(19683 tasks, 2 workers\\)")
                .contains("checksum: " + expected.checksum() + "\n")
                .contains("check: equal, bit for bit, to the sequential blocked product");
    }

    @Test
    void shouldRejectABlockThatDoesNotDivideTheOrder() {
        Run run = run("matmul", "--n", "100", "--block", "8");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--n 100 --block 8: expected 1 <= N <= 8192 and B dividing N");
    }

    @Test
    void shouldDetectAWrongProduct() {
        BlockedMatrix a = BlockedMatrix.random(16, 8, 1), b = BlockedMatrix.random(16, 8, 2);
        BlockedMatrix c = BlockedMatrix.zeros(16, 8), other = BlockedMatrix.zeros(16, 8);
        c.addProductSequential(a, b);
        other.addProductSequential(b, a);

        assertThat(c.bitEqual(other)).isFalse(); // the check can fail
    }
}
