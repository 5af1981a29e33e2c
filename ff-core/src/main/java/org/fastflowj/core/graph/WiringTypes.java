package org.fastflowj.core.graph;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Checks, when the graph is built, that items can flow between adjacent blocks: a node whose output
 * type can never be an instance of the next node's input type would fail at its first item with a
 * {@code ClassCastException}. Only types read from declarations are compared (see {@link NodeTypes});
 * an unknown type, a {@code Void} input (a source) or a {@code Void} output (a sink) is never an error.
 */
final class WiringTypes {
    private WiringTypes() {}

    /**
     * Throws if some node at the exits of {@code from} emits items that no node at the entries of {@code
     * to} can take; {@code fromWhere} and {@code toWhere} place the blocks in the tree for the message.
     */
    static void check(BuildingBlock from, String fromWhere, BuildingBlock to, String toWhere) {
        for (Node<?, ?> producer : exits(from, new ArrayList<>())) {
            Class<?> out = NodeTypes.output(producer);
            if (out == null || out == Void.class) {
                continue;
            }
            for (Node<?, ?> consumer : entries(to, new ArrayList<>())) {
                Class<?> in = NodeTypes.input(consumer);
                if (in != null && in != Void.class && cannotMatch(out, in)) {
                    throw new GraphBuildException(describe(fromWhere, from, producer) + " emits " + out.getTypeName()
                            + ", but " + describe(toWhere, to, consumer) + " takes " + in.getTypeName()
                            + ": no " + out.getSimpleName() + " is a " + in.getSimpleName()
                            + ", so the first item would fail with a ClassCastException");
                }
            }
        }
    }

    /** A combiner's first node into its second, checked as two pipeline stages. */
    static void check(Combiner<?, ?> combiner, String where) {
        check(combiner.first(), where + " first node", combiner.second(), where + " second node");
    }

    /**
     * Whether no object can be both an {@code out} and an {@code in}: neither class is a subtype of the
     * other, and no subclass could implement both (an interface and a non-final class may meet in one).
     * An {@code Object} output into a {@code String} input may carry strings, so it passes.
     */
    static boolean cannotMatch(Class<?> out, Class<?> in) {
        if (in.isAssignableFrom(out) || out.isAssignableFrom(in)) {
            return false;
        }
        boolean meetInSubclass = (out.isInterface() && !Modifier.isFinal(in.getModifiers()))
                || (in.isInterface() && !Modifier.isFinal(out.getModifiers()));
        return !meetInSubclass;
    }

    private static String describe(String where, BuildingBlock block, Node<?, ?> node) {
        return block == node ? where : where + " through " + node;
    }

    private static List<Node<?, ?>> entries(BuildingBlock block, List<Node<?, ?>> into) {
        if (block instanceof Node<?, ?> node) {
            into.add(node);
        } else if (block instanceof Pipeline pipe && !pipe.stages().isEmpty()) {
            entries(pipe.stages().get(0), into);
        } else if (block instanceof Farm farm) {
            if (farm.emitter() != null) {
                into.add(farm.emitter());
            } else {
                farm.workers().forEach(w -> entries(w, into));
            }
        } else if (block instanceof AllToAll a2a) {
            a2a.firstSet().forEach(l -> entries(l, into));
        }
        return into;
    }

    private static List<Node<?, ?>> exits(BuildingBlock block, List<Node<?, ?>> into) {
        if (block instanceof Node<?, ?> node) {
            into.add(node);
        } else if (block instanceof Pipeline pipe && !pipe.stages().isEmpty()) {
            exits(pipe.stages().get(pipe.stages().size() - 1), into);
        } else if (block instanceof Farm farm) {
            if (farm.collector() != null) {
                into.add(farm.collector());
            } else {
                farm.workers().forEach(w -> exits(w, into));
            }
        } else if (block instanceof AllToAll a2a) {
            a2a.secondSet().forEach(r -> exits(r, into));
        }
        return into;
    }
}
