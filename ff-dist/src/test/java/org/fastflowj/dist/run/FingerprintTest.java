package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.dist.DffConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Groups whose configs differ in their checkpoint settings refuse each other. */
@Timeout(30)
class FingerprintTest {
    private static final String GROUPS =
            "\"groups\": [{\"name\": \"A\", \"endpoint\": \"127.0.0.1:1\"}, {\"name\": \"B\", \"endpoint\": \"127.0.0.1:2\"}]";

    private static Graph program() {
        Node<Void, Integer> source = Node.source(List.of(1, 2, 3));
        Node<Integer, Void> sink = Node.sink((Integer x) -> {});
        source.createGroup("A");
        sink.createGroup("B");
        return GraphCompiler.compile(new Pipeline(source, sink));
    }

    private static long of(String topLevel) {
        return Fingerprint.of(program(), DffConfig.parse("{" + GROUPS + topLevel + "}", "app.json"), 7L);
    }

    @Test
    void shouldDifferWithEachCheckpointKey() {
        long base = of(", \"checkpoints\": {\"directory\": \"/ckpt\"}");

        assertThat(of(", \"checkpoints\": {\"directory\": \"/ckpt\"}")).isEqualTo(base);
        assertThat(
                        List.of(
                                of(""),
                                of(", \"checkpoints\": {\"directory\": \"/other\"}"),
                                of(", \"checkpoints\": {\"directory\": \"/ckpt\", \"intervalMs\": 500}"),
                                of(", \"checkpoints\": {\"directory\": \"/ckpt\", \"mode\": \"at-least-once\"}"),
                                of(", \"checkpoints\": {\"directory\": \"/ckpt\", \"retained\": 4}"),
                                of(", \"checkpoints\": {\"directory\": \"/ckpt\", \"restart\": {\"attempts\": 1}}"),
                                of(
                                        ", \"checkpoints\": {\"directory\": \"/ckpt\", \"restart\": {\"spareHosts\": [\"spare1\"]}}")))
                .doesNotContain(base)
                .doesNotHaveDuplicates();
    }
}
