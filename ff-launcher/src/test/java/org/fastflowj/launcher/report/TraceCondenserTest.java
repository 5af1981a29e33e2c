package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class TraceCondenserTest {
    private static final List<String> OWN_FAILURE = List.of(
            "Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node square failed in svc:"
                    + " java.lang.IllegalStateException: square refuses 50",
            "\tat org.fastflowj.core.runtime.RunControl.fail(RunControl.java:55)",
            "\tat java.base/java.lang.Thread.run(Thread.java:840)",
            "Caused by: java.lang.IllegalStateException: square refuses 50",
            "\tat my.app.Squares.lambda$main$2(Squares.java:37)",
            "\tat org.fastflowj.core.Node$FunctionNode.svc(Node.java:285)",
            "\tat my.app.Squares.main(Squares.java:12)",
            "\t... 1 more");

    @Test
    void shouldKeepTheExceptionAndTheFirstFrameOfTheProgramAndCutTheRest() {
        TraceCondenser condenser = new TraceCondenser();
        List<String> shown = OWN_FAILURE.stream()
                .map(condenser::show)
                .filter(Objects::nonNull)
                .toList();
        assertThat(shown).containsExactly(OWN_FAILURE.get(0), "\tat my.app.Squares.lambda$main$2(Squares.java:37)");
        assertThat(condenser.cutLines()).isEqualTo(6);
        assertThat(condenser.firstException()).isEqualTo(OWN_FAILURE.get(0));
        assertThat(condenser.firstUserFrame()).isEqualTo("at my.app.Squares.lambda$main$2(Squares.java:37)");
    }

    @Test
    void shouldShowAPeersFailureInOneLineWhenNoFrameIsTheProgramsOwn() {
        TraceCondenser condenser = new TraceCondenser();
        String header = "Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node group B failed"
                + " in abort: group B failed: node square failed in svc: square refuses 50";
        assertThat(condenser.show(header)).isEqualTo(header);
        for (int i = 0; i < 25; i++) {
            assertThat(condenser.show("\tat io.netty.channel.Frame" + i + ".read(Frame.java:1)"))
                    .isNull();
        }
        assertThat(condenser.show("Caused by: org.fastflowj.dist.run.lifecycle.GroupFailedException: group B failed"))
                .isNull();
        assertThat(condenser.show("\t... 25 more")).isNull();
        assertThat(condenser.show("B is done")).isEqualTo("B is done");
        assertThat(condenser.firstUserFrame()).isNull();
    }

    @Test
    void shouldShowTheProgramsFrameOfEachTrace() {
        TraceCondenser condenser = new TraceCondenser();
        condenser.show("first");
        assertThat(condenser.show("\tat my.app.A.run(A.java:1)")).isNotNull();
        condenser.show("second");
        assertThat(condenser.show("\tat java.base/java.lang.Thread.run(Thread.java:840)"))
                .isNull();
        assertThat(condenser.show("\tat app//my.app.B.run(B.java:2)")).isNotNull();
        assertThat(condenser.firstException()).isEqualTo("first");
    }

    @Test
    void shouldKeepAMessageOfSeveralLinesWholeInTheOneLineSummary() {
        TraceCondenser condenser = new TraceCondenser();
        List<String> lines = List.of(
                "B is starting",
                "Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node ff-send-B failed in svc:"
                        + " com.esotericsoftware.kryo.KryoException: java.lang.IllegalArgumentException: Unable to"
                        + " serialize a lambda",
                "Serialization trace:",
                "lazyCountry (my.app.Item)",
                "\tat com.esotericsoftware.kryo.Kryo.writeObject(Kryo.java:1)");
        lines.forEach(condenser::show);
        assertThat(condenser.firstException())
                .isEqualTo(lines.get(1) + " Serialization trace: lazyCountry (my.app.Item)");
    }

    @Test
    void shouldShowACauseChainsRepeatedMessageLinesOnce() {
        TraceCondenser condenser = new TraceCondenser();
        List<String> lines = List.of(
                "Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node ff-recv-A failed in svc:"
                        + " com.esotericsoftware.kryo.KryoException: Unable to find class: my.app.Item$$Lambda/0x1",
                "Serialization trace:",
                "lazyCountry (my.app.Item)",
                "\tat org.fastflowj.core.runtime.RunControl.fail(RunControl.java:55)",
                "Caused by: org.fastflowj.dist.run.link.CorruptBatchException: malformed item: com.esotericsoftware.kryo"
                        + ".KryoException: Unable to find class: my.app.Item$$Lambda/0x1",
                "Serialization trace:",
                "lazyCountry (my.app.Item)",
                "\tat org.fastflowj.dist.run.bridge.ReceiverTask.read(ReceiverTask.java:1)",
                "Caused by: com.esotericsoftware.kryo.KryoException: Unable to find class: my.app.Item$$Lambda/0x1",
                "Serialization trace:",
                "lazyCountry (my.app.Item)",
                "owner (my.app.Order)",
                "\tat com.esotericsoftware.kryo.Kryo.readObject(Kryo.java:1)",
                "\t... 26 more",
                "after the trace",
                "Serialization trace:");
        List<String> shown =
                lines.stream().map(condenser::show).filter(Objects::nonNull).toList();
        assertThat(shown)
                .containsExactly(
                        lines.get(0),
                        "Serialization trace:",
                        "lazyCountry (my.app.Item)",
                        "owner (my.app.Order)",
                        "after the trace",
                        "Serialization trace:");
        assertThat(condenser.cutLines()).isEqualTo(lines.size() - shown.size());
    }

    @Test
    void shouldShowTheProgramsOwnLinesThatOnlyLookLikeATrace() {
        TraceCondenser condenser = new TraceCondenser();
        for (String line : List.of("   at noon the run starts", "Caused by: a typo", "\t... 3 more to go")) {
            assertThat(condenser.show(line)).isEqualTo(line);
        }
        assertThat(condenser.cutLines()).isZero();
        assertThat(condenser.firstException()).isNull();
    }
}
