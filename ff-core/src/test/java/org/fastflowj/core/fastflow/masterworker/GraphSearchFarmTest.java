package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_graphsearch.cpp: ff_graphsearch, a master-worker farm re-run for
 * each search, visits the graph from node 1 and returns every node whose element equals the one searched
 * ("abc", the default, is not in the graph: NOT FOUND). FastFlow's gsearch.hpp has no counterpart: the
 * farm it builds (a scheduler that sends each unvisited neighbour once, workers that compare) is written
 * here with our blocks; only the search for all results, the one the test calls, is mirrored.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GraphSearchFarmTest {

    /** gnode_t: an id, an element and the list of output nodes. */
    static final class GNode {
        final int id;
        final String elem;
        final List<GNode> out = new ArrayList<>();

        GNode(int id, String elem) {
            this.id = id;
            this.elem = elem;
        }

        void add(GNode... nodes) {
            out.addAll(List.of(nodes));
        }
    }

    /** Worker: keeps the nodes equal to the one searched, sends every node back to the scheduler. */
    static final class Worker extends Node<GNode, GNode> {
        volatile String toSearch;
        final List<GNode> found = new ArrayList<>();
        int visited;

        @Override
        protected void svcInit() {
            found.clear();
            visited = 0;
        }

        @Override
        protected GNode svc(GNode node) {
            visited++;
            if (node.elem.equals(toSearch)) {
                found.add(node);
            }
            return node;
        }
    }

    /** Scheduler (the farm's emitter): sends the start node and each neighbour not yet sent, once. */
    static final class Scheduler extends Node<GNode, GNode> {
        volatile GNode start;
        private final BitSet mask = new BitSet();
        private long counter;
        int sent;

        @Override
        protected void svcInit() {
            mask.clear();
            counter = 0;
            sent = 0;
        }

        private void send(GNode n) {
            counter++;
            sent++;
            mask.set(n.id);
            sendOut(n);
        }

        @Override
        protected GNode svc(GNode node) {
            if (node == null) {
                if (start == null) {
                    return eos();
                }
                send(start);
                start.out.forEach(this::send);
                return goOn();
            }
            --counter;
            for (GNode n : node.out) {
                if (!mask.get(n.id)) {
                    send(n);
                }
            }
            return counter == 0 ? eos() : goOn();
        }
    }

    /** ff_graphsearch: one farm, built once and run again for each search. */
    static final class GraphSearch {
        final Scheduler scheduler = new Scheduler();
        final List<Worker> workers;
        private final Farm farm;

        GraphSearch(int nw) {
            workers = new ArrayList<>();
            for (int i = 0; i < nw; i++) {
                workers.add(new Worker());
            }
            farm = Farm.of(workers).emitter(scheduler).wrapAround();
        }

        /** One-shot search returning all results. */
        boolean search(GNode start, String toSearch, List<GNode> result) {
            scheduler.start = start;
            workers.forEach(w -> w.toSearch = toSearch);
            farm.runAndWaitEnd();
            workers.forEach(w -> result.addAll(w.found));
            return !result.isEmpty();
        }

        int visited() {
            return workers.stream().mapToInt(w -> w.visited).sum();
        }
    }

    private static GNode buildGraph() {
        GNode node1 = new GNode(1, "aaa");
        GNode node2 = new GNode(2, "aacb");
        GNode node3 = new GNode(8, "bbcb");
        GNode node4 = new GNode(4, "baac");
        GNode node5 = new GNode(7, "bba");
        GNode node6 = new GNode(6, "bacb");
        GNode node7 = new GNode(3, "aaa");
        GNode node8 = new GNode(5, "abb");
        GNode node9 = new GNode(9, "abbc");
        GNode node10 = new GNode(10, "ccacbb");
        GNode node11 = new GNode(11, "acbccb");
        GNode node12 = new GNode(12, "cacbbc");
        GNode node13 = new GNode(13, "aaa");
        GNode node14 = new GNode(14, "abbc");
        node1.add(node2, node3);
        node2.add(node4, node3);
        node3.add(node7);
        node4.add(node1);
        node5.add(node3, node13, node12);
        node6.add(node2, node7, node9, node5, node10);
        node7.add(node8, node5, node6);
        node8.add(node4);
        node9.add(node10, node14);
        node10.add(node4, node13);
        node11.add(node1, node3, node5);
        node12.add(node2, node3, node10);
        node14.add(node7);
        return node1;
    }

    private static List<Integer> ids(List<GNode> nodes) {
        return nodes.stream().map(n -> n.id).toList();
    }

    @Test
    void shouldFindEveryMatchingNodeReachableFromTheStartAndReuseTheFarmForEachSearch() {
        GNode node1 = buildGraph();
        GraphSearch gs = new GraphSearch(2); // gs.search(node1, &s, result, 2)

        List<GNode> result = new ArrayList<>();
        assertThat(gs.search(node1, "abc", result)).as("NOT FOUND").isFalse();
        assertThat(result).isEmpty();
        // every node but node11, which no node points to, is visited exactly once
        assertThat(gs.scheduler.sent).isEqualTo(13);
        assertThat(gs.visited()).isEqualTo(13);

        result.clear();
        assertThat(gs.search(node1, "aaa", result)).isTrue();
        assertThat(ids(result)).containsExactlyInAnyOrder(1, 3, 13);
        assertThat(gs.visited()).isEqualTo(13);

        result.clear();
        assertThat(gs.search(node1, "abbc", result)).isTrue();
        assertThat(ids(result)).containsExactlyInAnyOrder(9, 14);

        result.clear();
        assertThat(gs.search(node1, "bba", result)).isTrue();
        assertThat(ids(result)).containsExactly(7);

        result.clear();
        assertThat(gs.search(node1, "acbccb", result))
                .as("node11 is not reachable")
                .isFalse();

        result.clear();
        GNode node4 = node1.out.get(0).out.get(0);
        assertThat(gs.search(node4, "cacbbc", result)).as("from another start").isTrue();
        assertThat(ids(result)).containsExactly(12);
    }
}
