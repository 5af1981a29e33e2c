package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory, each group a real JVM with a small heap: a receiving group's heap is bounded in bytes, and a
 * group that runs out of memory halts at once (exit status 3), saying so, and its peers fail naming it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MemoryProcessTest {
    private static final List<String> GROUPS = List.of("A", "B");

    @TempDir
    Path dir;

    @Test
    void shouldCarry64KiBItemsIntoASlowSinkWithinA64MiBHeap() throws Exception {
        int items = 2_000; // 125 MiB: the sink's channel alone would hold 2048 of them
        Path config = ProcessCluster.config(dir, GROUPS, "");
        try (ProcessCluster cluster =
                ProcessCluster.start(MemoryApp.class, config, GROUPS, List.of(), "slowSink", Integer.toString(items))) {
            Map<String, Integer> codes = cluster.awaitExit(100);

            assertThat(codes).as(cluster.allOutput()).containsOnly(Map.entry("A", 0), Map.entry("B", 0));
            assertThat(cluster.output("B"))
                    .contains("buffers at most 32 MiB of items per peer group it receives from")
                    .contains("items=" + items + " checksum=" + MemoryApp.slowSinkChecksum(items));
        }
    }

    @Test
    void shouldHaltAGroupWhoseNodeRunsOutOfMemoryAndFailItsPeerNamingIt() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        try (ProcessCluster cluster =
                ProcessCluster.start(MemoryApp.class, config, GROUPS, List.of("-Xmx32m"), "hoard", "0")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.get("B")).as(cluster.allOutput()).isEqualTo(3);
            assertThat(codes.get("A")).as(cluster.allOutput()).isNotZero();
            // the sink, the receiver or the event loop: whichever allocates once the sink's hoard filled the heap
            assertThat(cluster.output("B"))
                    .containsPattern("out of memory in (node|event loop) ff-\\S+.*: java.lang.OutOfMemoryError");
            // A names B as the origin. Usually it read B's ABORT; when A was still sending to B, the halt's reset
            // can reach A before A read the ABORT (Linux drops unread bytes on a reset): then A lost B's link.
            assertThat(cluster.output("A"))
                    .contains("DFF_FAILED: B")
                    .containsPattern("group B failed: out of memory in |lost the connection to group B");
        }
    }

    @Test
    void shouldReportAnItemTooBigForTheHeapAsOutOfMemoryNotAsAMalformedItem() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        // B can hold the frame (direct memory) but not the item's copy next to Kryo's scratch copy in its heap
        try (ProcessCluster cluster = ProcessCluster.start(
                MemoryApp.class,
                config,
                GROUPS,
                g -> g.equals("A") ? List.of("-Xmx256m") : List.of("-Xmx48m", "-XX:MaxDirectMemorySize=128m"),
                "huge",
                "30")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            String out = cluster.output("B");
            assertThat(codes.get("B")).as(cluster.allOutput()).isEqualTo(3);
            assertThat(out).contains("out of memory in node ff-recv-A").doesNotContain("malformed item");
        }
    }
}
