package org.fastflowj.core.runtime;

import org.fastflowj.core.Node;
import org.fastflowj.core.spi.NodeLifecycle;

/**
 * The executor's door into a {@link Node}'s protected life-cycle methods: the {@link NodeLifecycle} that
 * {@code Node} hands to the engine when it is loaded ({@link org.fastflowj.core.runtime.LocalEngine#attach}). Package-private and
 * installed once: user code can neither reach it nor put another in its place.
 */
final class NodeAccess {
    private static volatile NodeAccess instance;

    private final NodeLifecycle<Node<?, ?>> lifecycle;

    private NodeAccess(NodeLifecycle<Node<?, ?>> lifecycle) {
        this.lifecycle = lifecycle;
    }

    /**
     * Takes {@code Node}'s door, once. Anything not declared inside {@code Node} (a class of its nest) is
     * refused, so neither a second install nor a lookalike from user code replaces the real one.
     *
     * @throws IllegalArgumentException if {@code lifecycle} is not {@code Node}'s own
     * @throws IllegalStateException if a door was already installed
     */
    static synchronized void install(NodeLifecycle<Node<?, ?>> lifecycle) {
        if (lifecycle.getClass().getNestHost() != Node.class) {
            throw new IllegalArgumentException(
                    "refused node lifecycle " + lifecycle.getClass().getName() + ": only Node's own is accepted");
        }
        if (instance != null) {
            throw new IllegalStateException("the node lifecycle is already installed");
        }
        instance = new NodeAccess(lifecycle);
    }

    /** The installed door (loading {@code Node}, which installs it, first if needed). */
    static NodeAccess get() {
        NodeAccess access = instance;
        if (access == null) {
            try {
                Class.forName(Node.class.getName(), true, Node.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            access = instance;
            if (access == null) {
                throw new IllegalStateException("Node was loaded but gave the engine no lifecycle door");
            }
        }
        return access;
    }

    /** What a node runner calls a node's life-cycle methods through; handed to runners only. */
    NodeLifecycle<Node<?, ?>> lifecycle() {
        return lifecycle;
    }
}
