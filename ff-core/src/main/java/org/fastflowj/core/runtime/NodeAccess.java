package org.fastflowj.core.runtime;

import org.fastflowj.core.Node;

/**
 * The executor's door into a {@link Node}'s protected life-cycle methods. The only implementation lives
 * in {@code org.fastflowj.core} and registers itself when {@code Node} is loaded, so user code keeps seeing
 * {@code svc}, {@code svcInit}, ... as protected while the engine, in another package, can call them.
 * Engine use only.
 */
public abstract class NodeAccess {
    private static volatile NodeAccess instance;

    /** Called once, by {@code Node}'s static initialiser. */
    public static void install(NodeAccess access) {
        instance = access;
    }

    /** The registered implementation (loading {@code Node} first if needed). */
    public static NodeAccess get() {
        NodeAccess access = instance;
        if (access == null) {
            try {
                Class.forName(Node.class.getName(), true, Node.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            access = instance;
        }
        return access;
    }

    public abstract void bind(Node<?, ?> node, NodeContext context, int id);

    public abstract void svcInit(Node<?, ?> node) throws Exception;

    /** Runs {@code svc} and returns its result: an item, {@link Sentinel#GO_ON} or {@link Sentinel#EOS}. */
    public abstract Object svc(Node<?, ?> node, Object input) throws Exception;

    /**
     * Forward input {@code channel} delivered EOS; {@code last} when it was the last live one. The node
     * decides which {@code eosNotify} calls that means for it (per channel, once, or down a combiner).
     */
    public abstract void inputEnded(Node<?, ?> node, int channel, boolean last) throws Exception;

    public abstract void svcEnd(Node<?, ?> node) throws Exception;
}
