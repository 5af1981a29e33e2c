package org.fastflowj.core.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;

/** A node's item types are read through any chain of generic superclasses, or not at all. */
class NodeTypesTest {
    abstract static class Stage<T> extends Node<T, Long> {}

    static final class LineStage extends Stage<String> {
        @Override
        protected Long svc(String in) {
            return 1L;
        }
    }

    /** Swaps its type variables on the way up: Node's I is this class's B. */
    abstract static class Swapped<A, B> extends Node<B, A> {}

    abstract static class Middle<X> extends Swapped<List<X>, Integer> {}

    static final class Leaf extends Middle<String> {
        @Override
        protected List<String> svc(Integer in) {
            return List.of();
        }
    }

    static final class Open<T> extends Node<T, T[]> {
        @Override
        protected T[] svc(T in) {
            return null;
        }
    }

    @SuppressWarnings("rawtypes")
    static final class Raw extends Node {
        @Override
        protected Object svc(Object in) {
            return in;
        }
    }

    @Test
    void shouldResolveTypeArgumentsThroughGenericSuperclasses() {
        assertThat(NodeTypes.input(new LineStage())).isEqualTo(String.class);
        assertThat(NodeTypes.output(new LineStage())).isEqualTo(Long.class);
        assertThat(NodeTypes.input(new Leaf())).isEqualTo(Integer.class);
        assertThat(NodeTypes.output(new Leaf())).isEqualTo(List.class);
    }

    @Test
    void shouldReadTypeVariablesRawClassesAndLambdasAsUnknown() {
        assertThat(NodeTypes.input(new Open<String>())).isNull();
        assertThat(NodeTypes.output(new Open<String>())).isNull();
        assertThat(NodeTypes.input(new Raw())).isNull();
        assertThat(NodeTypes.output(Node.of((String s) -> s))).isNull();
        assertThat(NodeTypes.input(Node.of(String.class, Integer.class, String::length)))
                .isEqualTo(String.class);
    }

    @Test
    void shouldOnlyRejectTypesNoObjectCanHaveBoth() {
        assertThat(WiringTypes.cannotMatch(String.class, Integer.class)).isTrue();
        assertThat(WiringTypes.cannotMatch(String.class, Runnable.class))
                .as("String is final")
                .isTrue();
        assertThat(WiringTypes.cannotMatch(Integer.class, Number.class)).isFalse();
        assertThat(WiringTypes.cannotMatch(Object.class, String.class)).isFalse();
        assertThat(WiringTypes.cannotMatch(Number.class, Runnable.class)).isFalse();
        assertThat(WiringTypes.cannotMatch(Runnable.class, CharSequence.class)).isFalse();
    }
}
