package org.fastflowj.bench.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What DF-Threads' Fig. 3 against MPI reads from both programs, and which cells it leaves out. */
class MpiFiguresTest {
    /** matmul in 2 groups through the launcher: every line prefixed by its group, the launcher's own between. */
    private static final String FFJ =
            """
            ff-launcher: all groups connected 1337 ms after the first start
            [G1] cpu: 0.510 s in this process
            ff-launcher: group G1: ended 0, 1.9 s, 36 items/s
            [G0] time: 1.303 s for n=216 block 8 (19683 tasks, 1 workers in each of 2 groups)
            [G0] checksum: 166.4581643994101
            [G0] digest: 0ca2ff0c79cac2c8
            [G0] cpu: 0.920 s in this process
            ff-launcher: every group exited 0
            """;

    /** matmul_mpi on 2 ranks, with a warning mpirun prints on its own. */
    private static final String MPI =
            """
            [vm:06935] plm:rsh: Warning: setpgid(6940,6940) failed in parent with errno=Permission denied(13)
            time: 0.021 s for n=216 block 8 (2 ranks)
            digest: 0ca2ff0c79cac2c8
            cpu: 0.012 s in this process (rank 0)
            cpu: 0.011 s in this process (rank 1)
            """;

    @Test
    void shouldReadTheTimeTheDigestAndEveryProcessCpuOfBothPrograms() {
        MpiFigures.Printed ffj = MpiFigures.parse("matmul", FFJ);
        MpiFigures.Printed mpi = MpiFigures.parse("matmul_mpi", MPI);

        assertThat(ffj.seconds()).isEqualTo(1.303);
        assertThat(ffj.digest()).isEqualTo("0ca2ff0c79cac2c8").isEqualTo(mpi.digest());
        assertThat(ffj.cpuTotal(2)).isEqualTo(0.510 + 0.920);
        assertThat(mpi.seconds()).isEqualTo(0.021);
        assertThat(mpi.cpuTotal(2)).isEqualTo(0.012 + 0.011);
    }

    @Test
    void shouldGiveNoCpuTotalUnlessEveryProcessPrintedItsOwn() {
        assertThat(MpiFigures.parse("matmul", FFJ).cpuTotal(4)).isNaN();
    }

    @Test
    void shouldFailQuotingTheOutputWhenTheDigestIsMissing() {
        String cut = MPI.replace("digest: 0ca2ff0c79cac2c8\n", "");

        assertThatThrownBy(() -> MpiFigures.parse("matmul_mpi n=216", cut))
                .hasMessageContaining("matmul_mpi n=216: no time or no digest")
                .hasMessageContaining("(2 ranks)");
    }

    @Test
    void shouldTakeOnlyTheProductsTimeLine() {
        String printed = "ff-launcher: group G0 start time: 0.5 s\n" + FFJ;

        assertThat(MpiFigures.parse("matmul", printed).seconds()).isEqualTo(1.303);
    }

    @Test
    void shouldSkipBlocksThatDoNotDivideTheOrder() {
        assertThat(MpiFigures.skipReason(216, 32, null, 120)).hasValue("block 32 does not divide n=216");
        assertThat(MpiFigures.skipReason(864, 32, null, 120)).isEmpty();
    }

    @Test
    void shouldEstimateFromTheSmallerOrderAsItsCubeAndSkipOverTheBudget() {
        MpiFigures.Known at432 = MpiFigures.Known.measured(432, 10);

        assertThat(MpiFigures.estimateSeconds(432, 10, 864)).isEqualTo(80);
        assertThat(MpiFigures.skipReason(864, 8, at432, 120)).isEmpty();
        assertThat(MpiFigures.skipReason(864, 8, at432, 60))
                .hasValueSatisfying(why -> assertThat(why).contains("estimated at 80 s", "budget of 60 s"));
    }

    @Test
    void shouldSkipTheRestOfASeriesThatFailed() {
        MpiFigures.Known failed = MpiFigures.Known.failed(432, "the launcher exited 1");

        assertThat(MpiFigures.skipReason(864, 8, failed, 900))
                .hasValue("the same series failed at n=432 (the launcher exited 1)");
    }

    @Test
    void shouldNameTheMissingToolsOfOpenMpi(@TempDir Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createFile(
                bin.resolve("mpicc"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        assertThat(MpiFigures.missingTools(bin.toString()))
                .hasValueSatisfying(why -> assertThat(why).startsWith("mpirun not on the PATH"));
        assertThat(MpiFigures.missingTools(dir.toString()))
                .hasValueSatisfying(why -> assertThat(why).startsWith("mpicc and mpirun not on the PATH"));
        Files.createFile(
                bin.resolve("mpirun"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        assertThat(MpiFigures.missingTools(bin.toString())).isEmpty();
    }
}
