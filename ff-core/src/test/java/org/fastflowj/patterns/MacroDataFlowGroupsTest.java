package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;
import static org.fastflowj.patterns.MacroDataFlow.out;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A MacroDataFlow with worker groups, run in one process (no group selected): the same results as without
 * groups, and every rule a task must keep to cross groups checked when it is added. The runs with one JVM
 * per group are ff-dist's {@code MacroDataFlowProcessTest} and ff-examples' {@code MatMulTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MacroDataFlowGroupsTest {
    // tag::kernel[]
    /** c += a * b on blocks of {@code bs}: parameters a, b, c. */
    record Gemm(int bs) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            BlockedMatrices.gemm((double[]) p[0], (double[]) p[1], (double[]) p[2], bs);
        }
    }
    // end::kernel[]

    /** Appends the worker thread's name to its list parameter. */
    record Note() implements MacroDataFlow.Kernel {
        @Override
        @SuppressWarnings("unchecked")
        public void run(Object[] p) {
            ((List<String>) p[0]).add(Thread.currentThread().getName());
        }
    }

    private static MacroDataFlow grouped() {
        // tag::grouped[]
        return new MacroDataFlow(1).createGroup("S").addWorkerGroup("W1", 1).addWorkerGroup("W2", 2);
        // end::grouped[]
    }

    @Test
    void shouldMultiplyBitExactlyWithWorkerGroupsDeclaredAndRunEveryWorkerHere() {
        int n = 48, bs = 8, nb = n / bs;
        double[][][] a = BlockedMatrices.random(n, bs, 1);
        double[][][] b = BlockedMatrices.random(n, bs, 2);
        double[][][] c = BlockedMatrices.zeros(n, bs);
        double[][][] expected = BlockedMatrices.zeros(n, bs);
        BlockedMatrices.sequentialProduct(a, b, expected, bs);
        List<String> threads = new ArrayList<>();
        try (MacroDataFlow mdf = grouped()) {
            mdf.run(g -> {
                for (int i = 0; i < nb; i++) {
                    for (int j = 0; j < nb; j++) {
                        for (int k = 0; k < nb; k++) {
                            g.add(new Gemm(bs), in(a[i][k]), in(b[k][j]), inout(c[i][j]));
                        }
                    }
                }
                for (int t = 0; t < 200; t++) {
                    g.add(new Note(), inout(threads));
                }
            });
        }
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                assertThat(c[i][j]).isEqualTo(expected[i][j]);
            }
        }
        assertThat(threads).hasSize(200);
        assertThat(new HashSet<>(threads)).allMatch(name -> name.startsWith("ff-farm"));
    }

    @Test
    void shouldRefuseARunnableTaskWhenWorkersSpanGroups() {
        try (MacroDataFlow mdf = grouped()) {
            assertThatThrownBy(() -> mdf.run(g -> g.add("setup", () -> {}, out(new double[1]))))
                    .isInstanceOf(MacroDataFlowException.class)
                    .rootCause()
                    .hasMessageContaining("task 'setup' (#0) is a Runnable, but workers run in groups [W1, W2]")
                    .hasMessageContaining("MacroDataFlow.Kernel");
        }
    }

    @Test
    void shouldRefuseALambdaKernelWhenWorkersSpanGroups() {
        try (MacroDataFlow mdf = grouped()) {
            assertThatThrownBy(() -> mdf.run(g -> g.add(p -> {}, out(new double[1]))))
                    .rootCause()
                    .hasMessageContaining("the kernel of task #0 is")
                    .hasMessageContaining("a lambda or local class")
                    .hasMessageContaining("must be a named class or record");
        }
    }

    @Test
    void shouldRefuseAWrittenParameterThatCannotComeBack() {
        try (MacroDataFlow mdf = grouped()) {
            assertThatThrownBy(() -> mdf.run(g -> g.add(new Note(), inout(new StringBuilder()))))
                    .rootCause()
                    .hasMessageContaining("parameter 0 of task #0 is a java.lang.StringBuilder the task writes")
                    .hasMessageContaining("an array, a List or a Map");
        }
    }

    @Test
    void shouldRefuseTheSameObjectTwiceInOneTask() {
        double[] x = new double[4];
        try (MacroDataFlow mdf = grouped()) {
            assertThatThrownBy(() -> mdf.run(g -> g.add(new Gemm(2), in(x), in(new double[4]), inout(x))))
                    .rootCause()
                    .hasMessageContaining("task #0 names the same object as parameters 0 and 2");
        }
    }

    @Test
    void shouldRefuseWorkerGroupsWithoutAGroupForTheScheduler() {
        try (MacroDataFlow mdf = new MacroDataFlow(1).addWorkerGroup("W1", 1)) {
            assertThatThrownBy(() -> mdf.run(g -> {}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("worker group W1 is added but the pattern has no group of its own");
        }
    }

    @Test
    void shouldRefuseAGroupNamedTwice() {
        assertThatThrownBy(() -> new MacroDataFlow(1).createGroup("S").addWorkerGroup("S", 1))
                .hasMessage("MacroDataFlow: group S is named twice");
        assertThatThrownBy(() -> new MacroDataFlow(1).addWorkerGroup("W", 0)).hasMessageContaining("at least 1 worker");
    }

    @Test
    void shouldCopyBackWhatARemoteRunWroteIntoTheOriginalObjects() {
        double[] target = new double[3];
        List<String> list = new ArrayList<>(List.of("old"));
        MdfTask original = new MdfTask(
                7, null, new Note(), new MacroDataFlow.Param[] {in(new double[1]), inout(target), inout(list)});
        MdfTask copy = new MdfTask(7, null, new Note(), new MacroDataFlow.Param[] {
            in(new double[1]), inout(new double[] {1, 2, 3}), inout(new ArrayList<>(List.of("new")))
        });
        MdfGroups.copyBack(original, copy);
        assertThat(target).containsExactly(1, 2, 3);
        assertThat(list).containsExactly("new");

        MdfTask shorter = new MdfTask(
                7, null, new Note(), new MacroDataFlow.Param[] {in(new double[1]), inout(new double[2]), inout(list)});
        assertThatThrownBy(() -> MdfGroups.copyBack(original, shorter))
                .hasMessageContaining("parameter 1 of task #7 came back from another group with 2 elements, not 3");
    }
}
