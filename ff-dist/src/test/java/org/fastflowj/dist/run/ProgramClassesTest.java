package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.Secret;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A program's own classes (those next to its node classes or its main class) cross groups without
 * registration; a class of any other package is still refused, with the line that allows it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgramClassesTest {
    /** Defined next to the nodes, never registered. */
    record Reading(String sensor, double value) {}

    /** Sends {@code count} items made by {@code make}. */
    static final class Emitter extends Node<Void, Object> {
        private final int count;
        private final java.util.function.IntFunction<Object> make;

        Emitter(int count, java.util.function.IntFunction<Object> make) {
            this.count = count;
            this.make = make;
        }

        @Override
        protected Object svc(Void none) {
            for (int i = 0; i < count; i++) {
                sendOut(make.apply(i));
            }
            return eos();
        }
    }

    static final class Collector extends Node<Object, Void> {
        final List<Object> received = new CopyOnWriteArrayList<>();

        @Override
        protected Void svc(Object item) {
            received.add(item);
            return goOn();
        }
    }

    @AfterEach
    void reset() {
        DFF.reset();
    }

    private static Pipeline twoGroups(Emitter source, Collector sink) {
        source.createGroup("A");
        sink.createGroup("B");
        return new Pipeline(source, sink);
    }

    @Test
    void aRecordNextToTheNodesCrossesWithoutRegistration() throws Exception {
        Collector sink = new Collector();
        Pipeline program = twoGroups(new Emitter(500, i -> new Reading("s" + i, i / 2.0)), sink);

        LocalCluster.run(
                program,
                LocalCluster.config(List.of("A", "B"), ""),
                SerializationConfig.defaults(),
                RunOptions.defaults(),
                45);

        assertThat(sink.received).hasSize(500).first().isEqualTo(new Reading("s0", 0.0));
        assertThat(sink.received.get(499)).isEqualTo(new Reading("s499", 249.5));
    }

    @Test
    void aClassOfAnUnrelatedPackageIsRefusedWithTheLineThatAllowsIt() throws Exception {
        Collector sink = new Collector();
        Pipeline program = twoGroups(new Emitter(3, i -> new Secret()), sink);

        Map<String, Throwable> failures = LocalCluster.runCollecting(
                program,
                LocalCluster.config(List.of("A", "B"), ""),
                SerializationConfig.defaults(),
                RunOptions.defaults(),
                45);

        assertThat(failures).containsKey("A");
        Throwable refused = Stream.iterate(failures.get("A"), t -> t != null, Throwable::getCause)
                .filter(ClassNotAllowedException.class::isInstance)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no refusal in", failures.get("A")));
        assertThat(refused.getMessage())
                .startsWith("class com.acme.Secret is not allowed to cross groups:")
                .contains("DFF.register(com.acme.Secret.class)");
        assertThat(sink.received).isEmpty();
    }

    @Test
    void theProgramsPackagesAreThoseOfItsOwnNodeClassesNotTheLibrarys() {
        Pipeline program = new Pipeline(Node.source(List.of(1, 2)), Node.of((Integer x) -> x), new Collector());

        assertThat(ProgramPackages.of(GraphCompiler.compile(program))).containsExactly("org.fastflowj.dist.run");
        assertThat(ProgramPackages.of(
                        GraphCompiler.compile(new Pipeline(Node.source(List.of(1)), Node.sink((Integer x) -> {})))))
                .as("only FastFlow-J's own node classes")
                .isEmpty();
    }

    @Test
    void thePackageOfTheClassThatCallsInitIsAllowed() {
        assertThat(DFF.settings().serialization().allowsClassName(Reading.class.getName()))
                .isFalse();

        DFF.init();

        assertThat(DFF.settings().serialization().programPackages()).containsExactly("org.fastflowj.dist.run");
        assertThat(DFF.settings().serialization().allowsClassName(Reading.class.getName()))
                .isTrue();
        assertThat(DFF.settings().serialization().allowsClassName(Secret.class.getName()))
                .isFalse();
    }
}
