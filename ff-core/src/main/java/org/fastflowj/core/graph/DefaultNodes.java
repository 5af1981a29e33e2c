package org.fastflowj.core.graph;

import org.fastflowj.core.Node;

/** Nodes the compiler adds where the user gave none: a farm's default emitter and collector. */
final class DefaultNodes {
    private DefaultNodes() {}

    /** Passes every item on unchanged. */
    static final class Forward extends Node<Object, Object> {
        private final String role;

        Forward(String role) {
            this.role = role;
        }

        @Override
        protected Object svc(Object input) {
            return input;
        }

        @Override
        public String toString() {
            return "default " + role;
        }
    }
}
