package org.fastflowj.core.runtime.control;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;

/**
 * A node's state as a checkpoint holds it: a {@link Checkpointed} node's own bytes; a combiner's, each
 * part's in turn (length-prefixed, -1 for a part without state), so a fused chain checkpoints as its
 * stages would apart.
 */
public final class NodeStates {
    private NodeStates() {}

    /** Whether {@code node}, or a part of it, keeps state in checkpoints. */
    public static boolean hasState(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            return hasState(c.first()) || hasState(c.second());
        }
        return node instanceof Checkpointed;
    }

    /** Whether a source {@code node} (its first part, for a combiner) replays from its snapshot. */
    public static boolean replays(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            return replays(c.first());
        }
        return node instanceof Checkpointed checkpointed && checkpointed.replays();
    }

    /** The node's state now, or null if it keeps none. */
    public static byte[] snapshot(Node<?, ?> node, long checkpointId) throws IOException {
        if (!hasState(node)) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        write(node, checkpointId, out);
        out.flush();
        return bytes.toByteArray();
    }

    private static void write(Node<?, ?> node, long checkpointId, DataOutputStream out) throws IOException {
        if (node instanceof Combiner<?, ?> c) {
            writePart(c.first(), checkpointId, out);
            writePart(c.second(), checkpointId, out);
        } else {
            ((Checkpointed) node).snapshot(checkpointId, out);
        }
    }

    private static void writePart(Node<?, ?> part, long checkpointId, DataOutputStream out) throws IOException {
        byte[] state = snapshot(part, checkpointId);
        if (state == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(state.length);
            out.write(state);
        }
    }

    /** Gives {@code node} back the state {@link #snapshot} took. */
    public static void restore(Node<?, ?> node, byte[] state) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
        if (node instanceof Combiner<?, ?> c) {
            restorePart(c.first(), in);
            restorePart(c.second(), in);
        } else {
            ((Checkpointed) node).restore(in);
        }
    }

    private static void restorePart(Node<?, ?> part, DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return;
        }
        byte[] state = new byte[length];
        in.readFully(state);
        restore(part, state);
    }

    /** Tells every stateful part of {@code node} that checkpoint {@code id} completed. */
    static void completed(Node<?, ?> node, long id) {
        if (node instanceof Combiner<?, ?> c) {
            completed(c.first(), id);
            completed(c.second(), id);
        } else if (node instanceof Checkpointed checkpointed) {
            checkpointed.checkpointCompleted(id);
        }
    }
}
