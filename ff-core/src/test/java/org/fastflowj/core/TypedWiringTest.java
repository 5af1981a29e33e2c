package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Adjacent stages whose declared item types cannot match fail when the graph is built, naming both
 * stages and both types; where a type cannot be read, nothing is checked.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TypedWiringTest {
    record Reading(double value) {}

    static final class Readings extends Node<Void, Reading> {
        private int left = 3;

        @Override
        protected Reading svc(Void none) {
            return left-- > 0 ? new Reading(left) : eos();
        }

        @Override
        public String toString() {
            return "Readings";
        }
    }

    static final class Parse extends Node<String, Integer> {
        @Override
        protected Integer svc(String line) {
            return line.length();
        }

        @Override
        public String toString() {
            return "Parse";
        }
    }

    static final class Describe extends Node<Reading, String> {
        @Override
        protected String svc(Reading r) {
            return "r" + r.value();
        }
    }

    static final class Collect<T> extends Node<T, Void> {
        final List<T> seen = new CopyOnWriteArrayList<>();

        @Override
        protected Void svc(T item) {
            seen.add(item);
            return goOn();
        }
    }

    @Test
    void shouldNameBothStagesAndBothTypesWhenAPipelineMismatches() {
        Pipeline pipe = new Pipeline(new Readings(), new Parse(), new Collect<Integer>());

        assertThatThrownBy(pipe::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("pipe1 stage 0 (Readings) emits " + Reading.class.getTypeName())
                .hasMessageContaining("pipe1 stage 1 (Parse) takes java.lang.String")
                .hasMessageContaining("ClassCastException");
        assertThatThrownBy(pipe::toDot).isInstanceOf(GraphBuildException.class);
    }

    @Test
    void shouldCheckThroughNestedPipelinesAndCombiners() {
        Pipeline nested = new Pipeline(
                new Pipeline(new Readings(), Combiner.of(new Describe(), new Parse())),
                new Pipeline(Combiner.of(new Parse(), new Collect<Integer>())));

        assertThatThrownBy(nested::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("pipe1 stage 0 (Pipeline(2 stages)) through Combiner(")
                .hasMessageContaining("emits java.lang.Integer")
                .hasMessageContaining("pipe1 stage 1 (Pipeline(1 stages)) through Combiner(Parse")
                .hasMessageContaining("takes java.lang.String");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void shouldCheckACombinersOwnSeam() {
        Node first = new Describe(); // raw: the compiler let the mismatch through
        Pipeline pipe = new Pipeline(new Readings(), Combiner.of(first, new Describe()), new Collect<String>());

        assertThatThrownBy(pipe::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("combiner at pipe1-stage1 first node emits java.lang.String")
                .hasMessageContaining("combiner at pipe1-stage1 second node takes " + Reading.class.getTypeName());
    }

    @Test
    void shouldCheckFarmEmitterToWorkersAndWorkersToCollector() {
        Farm badWorkers = Farm.of(2, Parse::new).emitter(Node.of(Reading.class, Reading.class, r -> r));
        assertThatThrownBy(() -> new Pipeline(new Readings(), badWorkers).run())
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("farm1 emitter (node Node.of(Reading -> Reading, ")
                .hasMessageContaining("emits " + Reading.class.getTypeName())
                .hasMessageContaining("farm1 worker 0 (Parse) takes java.lang.String");

        Farm clash = Farm.of(2, Describe::new).collector(new Describe());
        assertThatThrownBy(() -> new Pipeline(new Readings(), clash).run())
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("farm1 worker 0 (node " + Describe.class.getName() + ") emits java.lang.String")
                .hasMessageContaining(
                        "farm1 collector (node " + Describe.class.getName() + ") takes " + Reading.class.getTypeName());
    }

    @Test
    void shouldCheckAFarmWithoutCollectorAgainstTheNextStage() {
        Pipeline pipe = new Pipeline(new Readings(), Farm.of(3, Describe::new), new Describe());

        assertThatThrownBy(pipe::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("pipe1 stage 1 (Farm")
                .hasMessageContaining("through node " + Describe.class.getName() + " emits java.lang.String")
                .hasMessageContaining("pipe1 stage 2 (node " + Describe.class.getName() + ") takes");
    }

    @Test
    void shouldCheckAllToAllLeftOutputsAgainstRightInputs() {
        AllToAll a2a = new AllToAll().firstSet(new Describe(), new Describe()).secondSet(new Describe());

        assertThatThrownBy(() -> new Pipeline(new Readings(), a2a).run())
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("a2a1 L-Worker 0 (node " + Describe.class.getName() + ") emits java.lang.String")
                .hasMessageContaining(
                        "a2a1 R-Worker 0 (node " + Describe.class.getName() + ") takes " + Reading.class.getTypeName());
    }

    @Test
    void shouldCheckNodeOfWithTypeWitnesses() {
        Node<Integer, String> show = Node.of(Integer.class, String.class, i -> "#" + i);
        Pipeline bad = new Pipeline(new Readings(), show, new Collect<String>());

        assertThatThrownBy(bad::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("pipe1 stage 1 (node Node.of(Integer -> String, ")
                .hasMessageContaining("takes java.lang.Integer");

        Collect<String> sink = new Collect<>();
        new Pipeline(source(3), Node.of(Integer.class, String.class, i -> "#" + i), sink).runAndWaitEnd();
        assertThat(sink.seen).containsExactly("#0", "#1", "#2");
    }

    @Test
    void shouldNotCheckWhatCannotBeRead() {
        // A lambda's types are erased, an Object output may carry strings, an interface may meet a
        // non-final class in a subclass: none of these is an error, and each runs.
        Collect<Object> sink = new Collect<>();
        Node<Object, Object> anything = new Node<>() {
            @Override
            protected Object svc(Object in) {
                return in.toString();
            }
        };
        Node<CharSequence, Object> length = new Node<>() {
            @Override
            protected Object svc(CharSequence in) {
                return in.length();
            }
        };
        new Pipeline(new Readings(), Node.of(r -> r), anything, length, sink).runAndWaitEnd();

        assertThat(sink.seen).hasSize(3);
    }
}
