package org.fastflowj.core.graph;

import java.util.List;

/**
 * A {@link org.fastflowj.core.AllToAll#recoverable() recoverable} all-to-all as compiled. L-Worker {@code i}
 * sends on {@code dispatch.get(i).get(j)} to R-Worker {@code j}, whose first node ({@code entries.get(j)})
 * sees that edge as its input channel {@code i}; R-Worker {@code j}'s outputs leave on {@code
 * returns.get(j)}, its one edge to the next stage. The R-Workers are chains of one-output-per-item nodes, so
 * output {@code k} of R-Worker {@code j} answers the {@code k}-th item its first node took: which L-Worker
 * sent that item, and its sequence on that edge, only R-Worker {@code j}'s process knows (it took the items
 * from its channels in its own order), and the output carries them.
 *
 * @param name the all-to-all's name in the graph ({@code a2a1}, or its given name), for messages
 * @param senders per L-Worker, the node that sends to the R-Workers (the last of its chain)
 * @param entries per R-Worker, the node that takes its items (the first of its chain)
 * @param dispatch per L-Worker {@code i}, per R-Worker {@code j}: the edge between them
 * @param returns per R-Worker, the one edge its outputs leave on
 */
public record RecoverableAllToAll(
        String name, List<Vertex> senders, List<Vertex> entries, List<List<Edge>> dispatch, List<Edge> returns) {
    public RecoverableAllToAll {
        senders = List.copyOf(senders);
        entries = List.copyOf(entries);
        dispatch = dispatch.stream().map(List::copyOf).toList();
        returns = List.copyOf(returns);
        if (dispatch.size() != senders.size() || returns.size() != entries.size()) {
            throw new IllegalArgumentException(senders.size() + " L-Workers, " + dispatch.size() + " rows of edges, "
                    + entries.size() + " R-Workers, " + returns.size() + " return edges");
        }
    }

    /** The group of the L-Workers (and of the R-Workers' consumer), or null in a program without groups. */
    public String home() {
        return senders.get(0).group();
    }
}
