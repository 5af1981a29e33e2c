package org.fastflowj.core.runtime.control;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.core.checkpoint.IncrementalCheckpointed;

/**
 * A node's state as a checkpoint holds it: a {@link Checkpointed} node's own bytes; a combiner's, each
 * part's in turn (length-prefixed, -1 for a part without state), so a fused chain checkpoints as its
 * stages would apart. A change set ({@link IncrementalCheckpointed}) has the same layout: the parts that
 * can write changes do, the others their whole state, so a restart takes each of those from the newest
 * state of the chain, and each incremental part from the whole state and every change set after it.
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

    /** Whether {@code node}, or a part of it, can write change sets. */
    public static boolean incremental(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            return incremental(c.first()) || incremental(c.second());
        }
        return node instanceof IncrementalCheckpointed;
    }

    /** Tells every incremental part of {@code node} to note its changes from now on. */
    public static void trackChanges(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            trackChanges(c.first());
            trackChanges(c.second());
        } else if (node instanceof IncrementalCheckpointed incremental) {
            incremental.trackChanges();
        }
    }

    /** The node's whole state now, or null if it keeps none. */
    public static byte[] snapshot(Node<?, ?> node, long checkpointId) throws IOException {
        return snapshot(node, checkpointId, false);
    }

    /**
     * The node's state now, or null if it keeps none: with {@code changesOnly}, its incremental parts'
     * changes since their previous snapshot.
     */
    public static byte[] snapshot(Node<?, ?> node, long checkpointId, boolean changesOnly) throws IOException {
        if (!hasState(node)) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        write(node, checkpointId, changesOnly, out);
        out.flush();
        return bytes.toByteArray();
    }

    private static void write(Node<?, ?> node, long checkpointId, boolean changesOnly, DataOutputStream out)
            throws IOException {
        if (node instanceof Combiner<?, ?> c) {
            writePart(c.first(), checkpointId, changesOnly, out);
            writePart(c.second(), checkpointId, changesOnly, out);
        } else if (changesOnly && node instanceof IncrementalCheckpointed incremental) {
            incremental.snapshotChanges(checkpointId, out);
        } else {
            ((Checkpointed) node).snapshot(checkpointId, out);
        }
    }

    private static void writePart(Node<?, ?> part, long checkpointId, boolean changesOnly, DataOutputStream out)
            throws IOException {
        byte[] state = snapshot(part, checkpointId, changesOnly);
        if (state == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(state.length);
            out.write(state);
        }
    }

    /** Gives {@code node} back the whole state {@link #snapshot} took. */
    public static void restore(Node<?, ?> node, byte[] state) throws IOException {
        restore(node, List.of(state));
    }

    /**
     * Gives {@code node} back its state from {@code chain}: a whole state, then the change sets taken
     * after it, in order ({@link org.fastflowj.core.checkpoint.Checkpoint#chainOf}).
     */
    public static void restore(Node<?, ?> node, List<byte[]> chain) throws IOException {
        if (node instanceof Combiner<?, ?> c) {
            List<byte[]> firsts = new ArrayList<>();
            List<byte[]> seconds = new ArrayList<>();
            for (byte[] state : chain) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
                firsts.add(readPart(in));
                seconds.add(readPart(in));
            }
            restorePart(c.first(), firsts);
            restorePart(c.second(), seconds);
        } else if (node instanceof IncrementalCheckpointed incremental) {
            incremental.restore(new DataInputStream(new ByteArrayInputStream(chain.get(0))));
            for (int i = 1; i < chain.size(); i++) {
                incremental.restoreChanges(new DataInputStream(new ByteArrayInputStream(chain.get(i))));
            }
        } else {
            // A part that writes whole states only: the newest is all it needs.
            ((Checkpointed) node).restore(new DataInputStream(new ByteArrayInputStream(chain.get(chain.size() - 1))));
        }
    }

    /** One part's bytes of a combiner's state, or null for a part without state. */
    private static byte[] readPart(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] state = new byte[length];
        in.readFully(state);
        return state;
    }

    private static void restorePart(Node<?, ?> part, List<byte[]> chain) throws IOException {
        if (chain.get(0) == null) {
            return;
        }
        restore(part, chain);
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
