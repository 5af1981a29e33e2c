package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelMapTest {

    static List<Integer[]> arrays(int count) {
        List<Integer[]> arrays = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            Integer[] a = new Integer[k * 37 % 101];
            for (int i = 0; i < a.length; i++) {
                a[i] = k * 1000 + i;
            }
            arrays.add(a);
        }
        return arrays;
    }

    static List<String> sequential(List<Integer[]> arrays) {
        List<String> expected = new ArrayList<>();
        for (Integer[] a : arrays) {
            StringBuilder sb = new StringBuilder();
            for (Integer x : a) {
                sb.append(Long.toHexString((long) x * x)).append(',');
            }
            expected.add(sb.toString());
        }
        return expected;
    }

    static String joined(String[] hex) {
        return String.join(",", hex) + (hex.length > 0 ? "," : "");
    }

    @Test
    void shouldMapEveryArrayOfTheStreamInOrder() {
        List<Integer[]> arrays = arrays(50);
        List<String> out = new ArrayList<>();
        new Pipeline(
                        Node.source(arrays),
                        ParallelMap.<Integer, String>of(3, x -> Long.toHexString((long) x * x), String[]::new),
                        Node.<String[]>sink(hex -> out.add(joined(hex))))
                .runAndWaitEnd();
        assertThat(out).containsExactlyElementsOf(sequential(arrays));
    }

    @Test
    void shouldRunAsEveryWorkerOfAFarmWithDynamicChunks() {
        List<Integer[]> arrays = arrays(40);
        List<String> out = new ArrayList<>();
        Farm farm = Farm.of(
                        2,
                        () -> ParallelMap.<Integer, String>of(2, 5, x -> Long.toHexString((long) x * x), String[]::new))
                .ordered();
        new Pipeline(Node.source(arrays), farm, Node.<String[]>sink(hex -> out.add(joined(hex)))).runAndWaitEnd();
        assertThat(out).containsExactlyElementsOf(sequential(arrays));
    }

    @Test
    void shouldFailTheRunNamingTheElement() {
        Pipeline pipe = new Pipeline(
                Node.source(arrays(5)),
                ParallelMap.<Integer, Integer>of(2, x -> 100 / (x - 3007), Integer[]::new),
                Node.sink(a -> {}));
        assertThatThrownBy(pipe::runAndWaitEnd)
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("index 7")
                .hasRootCauseInstanceOf(ArithmeticException.class);
    }
}
