package org.fastflowj.core.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Flattens a building-block tree into a {@link Graph}, applying the paper's composition rules once:
 *
 * <ol>
 *   <li>two sequential nodes in a pipeline: one edge;
 *   <li>a parallel block next to a node: the node fans in (becomes multi-input) or fans out (becomes
 *       multi-output, round-robin by default);
 *   <li>two parallel blocks: edge vertices of equal count are joined one to one, otherwise (or when
 *       both sides choose channels themselves) every exit is joined to every entry. The same rule
 *       closes a loop: plain R-Workers of an all-to-all feed back to the L-Worker of the same index,
 *       multi-output ones to every L-Worker.
 * </ol>
 *
 * Each block compiles to a {@link Fragment}: the vertices that take its input and those that produce
 * its output. Thread names are the nodes' own ({@link Node#named}), else their place in the tree:
 * {@code ff-farm1-worker3}, {@code ff-pipe1-stage0}, {@code ff-a2a1-L0}, {@code ff-farm1-worker2-stage1}.
 */
public final class GraphCompiler {
    private final List<Vertex> vertices = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final Map<String, Integer> labels = new HashMap<>();
    private final Map<String, Integer> givenNames = new HashMap<>();
    private final Map<Object, String> placed = new IdentityHashMap<>();
    private final List<Cluster> clusters = new ArrayList<>();
    private final List<RecoverableFarm> recoverableFarms = new ArrayList<>();
    /** Recoverable all-to-alls compiled so far: their return edges are known once the whole tree is. */
    private final List<PendingAllToAll> recoverableAllToAlls = new ArrayList<>();

    private final Deque<Cluster> openClusters = new ArrayDeque<>();
    private Map<BuildingBlock, String> groupOf = Map.of();
    /** The distributed group of the blocks being compiled (null when the program has none). */
    private String currentGroup;

    private GraphCompiler() {}

    /**
     * Compiles {@code root}.
     *
     * @throws GraphBuildException naming the block and the rule it breaks
     */
    public static Graph compile(BuildingBlock root) {
        GraphCompiler compiler = new GraphCompiler();
        compiler.groupOf = GroupLayout.assign(root);
        compiler.compile(root, null, 0, false);
        List<RecoverableAllToAll> allToAlls = new ArrayList<>();
        for (PendingAllToAll pending : compiler.recoverableAllToAlls) {
            allToAlls.add(pending.resolve());
        }
        return new Graph(compiler.vertices, compiler.edges, compiler.clusters, compiler.recoverableFarms, allToAlls);
    }

    /**
     * Checks the distributed groups of {@code root} against the layout rules (the 2022 paper's Fig. 6), as
     * {@link #compile} does first, without compiling the rest: for groups made from elsewhere than the
     * program's code, whose errors are to be reported where they were made.
     *
     * @throws GraphBuildException naming the group, the block and the rule it breaks
     */
    public static void checkGroups(BuildingBlock root) {
        GroupLayout.assign(root);
    }

    /**
     * What a compiled block offers its neighbours. {@code wrapped}: its exits already send their results
     * back on a feedback channel, so feeding a next stage too needs exits that choose (multi-output).
     */
    private record Fragment(List<Vertex> entries, List<Vertex> exits, boolean wrapped) {
        Fragment(List<Vertex> entries, List<Vertex> exits) {
            this(entries, exits, false);
        }
    }

    private Fragment compile(BuildingBlock block, String place, int id, boolean hasInput) {
        String enclosing = currentGroup;
        String group = groupOf.get(block);
        if (group != null) {
            currentGroup = group;
        }
        try {
            return compileBlock(block, place, id, hasInput);
        } finally {
            currentGroup = enclosing;
        }
    }

    private Fragment compileBlock(BuildingBlock block, String place, int id, boolean hasInput) {
        if (!(block instanceof Node)) {
            checkOnce(block, place == null ? "the root" : place);
        }
        if (block instanceof Node<?, ?> node) {
            Vertex v = leaf(node, place == null ? "node" : place, id);
            return new Fragment(List.of(v), List.of(v));
        } else if (block instanceof Pipeline pipeline) {
            return pipeline(pipeline, place, hasInput);
        } else if (block instanceof Farm farm) {
            return farm(farm, hasInput);
        } else if (block instanceof AllToAll a2a) {
            return allToAll(a2a, hasInput);
        }
        throw new GraphBuildException(
                "unknown building block " + block.getClass().getName());
    }

    private Fragment pipeline(Pipeline pipe, String place, boolean hasInput) {
        String stem = pipe.givenName() != null ? uniqueName(pipe.givenName()) : place == null ? label("pipe") : place;
        List<BuildingBlock> stages = pipe.stages();
        if (stages.isEmpty()) {
            throw new GraphBuildException(pipe + " at " + stem + ": a pipeline needs at least one stage");
        }
        Fragment first = null;
        Fragment prev = null;
        for (int i = 0; i < stages.size(); i++) {
            boolean input = i > 0 || hasInput || pipe.isWrapAround();
            Fragment f = compile(stages.get(i), stem + "-stage" + i, i, input);
            if (prev != null) {
                String from = stem + " stage " + (i - 1) + " (" + stages.get(i - 1) + ")";
                String to = stem + " stage " + i + " (" + stages.get(i) + ")";
                WiringTypes.check(stages.get(i - 1), from, stages.get(i), to);
                connect(prev, f.entries, Edge.Kind.FORWARD, 0, from, to);
            } else {
                first = f;
            }
            prev = f;
        }
        if (pipe.isWrapAround()) {
            connect(prev, first.entries, Edge.Kind.FEEDBACK, 0, stem + " last stage", stem + " first stage");
            return new Fragment(first.entries, prev.exits, true);
        }
        return new Fragment(first.entries, prev.exits, prev.wrapped);
    }

    private Fragment farm(Farm farm, boolean hasInput) {
        String stem = farm.givenName() != null ? uniqueName(farm.givenName()) : label("farm");
        openCluster(stem, Cluster.Kind.FARM);
        try {
            return farm(farm, stem, hasInput);
        } finally {
            openClusters.pop();
        }
    }

    private Fragment farm(Farm farm, String stem, boolean hasInput) {
        List<BuildingBlock> workers = farm.workers();
        if (workers.isEmpty()) {
            throw new GraphBuildException(farm + " " + stem + ": a farm needs at least one worker");
        }
        if (farm.isOrdered()) {
            checkOrdered(farm, stem, hasInput);
        }
        if (farm.isRecoverable()) {
            checkRecoverable(farm, stem);
        }
        if (farm.workerAffinity() != null) {
            checkAffinity(farm, stem, hasInput);
        }
        boolean loops = farm.isWrapAround() || farm.hasFeedbackFromWorkers();
        if (loops && farm.emitter() == null) {
            throw new GraphBuildException(farm + " " + stem + ": a wrapped-around farm needs an emitter of its own;"
                    + " the default one would send every fed-back result to the workers again, forever");
        }
        boolean needsEmitter = farm.emitter() != null || hasInput || loops;
        Vertex emitter = null;
        if (needsEmitter) {
            Node<?, ?> node = farm.emitter() != null ? farm.emitter() : new DefaultNodes.Forward("emitter");
            emitter = leaf(node, stem + "-emitter", 0, farm.emitter() == null);
            emitter.workerAffinity(farm.affinitySets(), farm.workerAffinity());
        }
        List<Fragment> compiled = new ArrayList<>();
        List<List<Vertex>> workerVertices = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            int firstVertex = vertices.size();
            Fragment w = compile(workers.get(i), stem + "-worker" + i, i, needsEmitter);
            workerVertices.add(new ArrayList<>(vertices.subList(firstVertex, vertices.size())));
            if (farm.emitter() != null) {
                WiringTypes.check(
                        farm.emitter(),
                        stem + " emitter (" + farm.emitter() + ")",
                        workers.get(i),
                        stem + " worker " + i + " (" + workers.get(i) + ")");
            }
            if (emitter != null) {
                connect(
                        new Fragment(List.of(emitter), List.of(emitter)),
                        w.entries,
                        Edge.Kind.FORWARD,
                        farm.onDemandSlots(),
                        stem + " emitter",
                        stem + " worker " + i + " (" + workers.get(i) + ")");
            }
            compiled.add(w);
        }
        Vertex collector = null;
        if (farm.collector() != null || farm.isOrdered()) {
            Node<?, ?> node = farm.collector() != null ? farm.collector() : new DefaultNodes.Forward("collector");
            collector = leaf(node, stem + "-collector", 0, farm.collector() == null);
            for (int i = 0; i < compiled.size(); i++) {
                if (farm.collector() != null) {
                    WiringTypes.check(
                            workers.get(i),
                            stem + " worker " + i + " (" + workers.get(i) + ")",
                            farm.collector(),
                            stem + " collector (" + farm.collector() + ")");
                }
                connect(
                        compiled.get(i),
                        List.of(collector),
                        Edge.Kind.FORWARD,
                        0,
                        stem + " worker " + i + " (" + workers.get(i) + ")",
                        stem + " collector");
            }
        }
        if (farm.isOrdered()) {
            Edge order = new Edge(emitter, collector, Edge.Kind.ORDER, farm.maxInFlight());
            edges.add(order);
            emitter.orderRole(Vertex.OrderRole.RECORD, order);
            collector.orderRole(Vertex.OrderRole.COLLECT, order);
            for (List<Vertex> chain : workerVertices) {
                for (int k = 0; k < chain.size(); k++) {
                    chain.get(k).orderRole(k == 0 ? Vertex.OrderRole.MARK : Vertex.OrderRole.PASS_MARKS, null);
                }
            }
        }
        List<Vertex> entries = emitter == null ? List.of() : List.of(emitter);
        if (farm.hasFeedbackFromWorkers()) {
            for (int i = 0; i < compiled.size(); i++) {
                if (collector != null) {
                    // Their default output goes to the collector: feeding back must be chosen per item.
                    requireChoosers(
                            new Fragment(compiled.get(i).entries, compiled.get(i).exits, true),
                            stem + " worker " + i + " (feedbackFromWorkers, with a collector)");
                }
                connect(
                        compiled.get(i),
                        List.of(emitter),
                        Edge.Kind.FEEDBACK,
                        0,
                        stem + " worker " + i,
                        stem + " emitter");
            }
        }
        if (farm.isRecoverable()) {
            recordRecoverable(emitter, collector, compiled);
        }
        if (collector != null) {
            if (farm.isWrapAround()) {
                edge(collector, emitter, Edge.Kind.FEEDBACK, 0);
            }
            return new Fragment(entries, List.of(collector), farm.isWrapAround());
        }
        List<Vertex> exits = new ArrayList<>();
        for (Fragment w : compiled) {
            exits.addAll(w.exits);
        }
        return new Fragment(entries, exits, farm.hasFeedbackFromWorkers());
    }

    private void checkOrdered(Farm farm, String stem, boolean hasInput) {
        if (farm.isWrapAround() || farm.hasFeedbackFromWorkers()) {
            throw new GraphBuildException(farm + " " + stem + ": an ordered farm cannot wrap around"
                    + " (order is defined by the input stream, feedback would re-enter it)");
        }
        if (!hasInput && farm.emitter() == null) {
            throw new GraphBuildException(farm + " " + stem + ": an ordered farm needs an input stream or an"
                    + " emitter to define the order; its workers would be sources");
        }
        List<BuildingBlock> workers = farm.workers();
        for (int i = 0; i < workers.size(); i++) {
            if (!isChain(workers.get(i))) {
                throw new GraphBuildException(farm + " " + stem + ": worker " + i + " is " + workers.get(i)
                        + ", but an ordered farm's workers must be nodes or pipelines of nodes");
            }
        }
    }

    /**
     * The rules of {@link Farm#affinity}: it steers an on-demand dispatch, which only a farm with an emitter
     * has, and names workers by the emitter's outputs, one per worker only when each is a node or a
     * pipeline of nodes.
     */
    private static void checkAffinity(Farm farm, String stem, boolean hasInput) {
        String why = null;
        if (!farm.isOnDemand()) {
            why = "it must be onDemand(): the affinity steers the on-demand hand-out";
        } else if (farm.emitter() == null && !hasInput) {
            why = "it needs an emitter or an input: its workers would be sources, with nothing to hand out";
        } else if (farm.emitter() != null && farm.emitter().isMultiOutput()) {
            why = "its emitter must not choose workers (a MultiOutputNode): the on-demand hand-out places items";
        }
        for (int i = 0; why == null && i < farm.workers().size(); i++) {
            if (!isChain(farm.workers().get(i))) {
                why = "worker " + i + " is " + farm.workers().get(i) + ", but its workers must be nodes or"
                        + " pipelines of nodes (worker i is the emitter's output i)";
            }
        }
        int[][] sets = farm.affinitySets();
        for (int s = 0; why == null && s < sets.length; s++) {
            if (sets[s].length == 0) {
                why = "its set of workers " + s + " must name at least one worker";
            }
            for (int w : sets[s]) {
                if (why == null && (w < 0 || w >= farm.workers().size())) {
                    why = "its set of workers " + s + " names worker " + w + ", but it has "
                            + farm.workers().size();
                }
            }
        }
        if (why != null) {
            throw new GraphBuildException(farm + " " + stem + " has a worker affinity, so " + why);
        }
    }

    /** The rules of {@link Farm#recoverable()}: each worker's outputs come back to the farm, one per item. */
    private static void checkRecoverable(Farm farm, String stem) {
        String why = null;
        if (farm.emitter() == null) {
            why = "it needs an emitter of its own (the one that sends a lost worker's items again)";
        } else if (farm.isOrdered()) {
            why = "it cannot be ordered: drop ordered()";
        } else if (farm.emitter() instanceof MultiOutputNode<?, ?>) {
            why = "its emitter must not choose workers (a MultiOutputNode): an item must be free to go to any"
                    + " worker when its own is lost";
        } else if (farm.collector() == null && !farm.isWrapAround()) {
            why = "its workers' outputs must come back to it: give it a collector, or wrapAround() without one";
        } else if (farm.collector() != null && farm.hasFeedbackFromWorkers()) {
            why = "its workers' outputs must come back on one way: a collector or feedback, not both";
        }
        for (int i = 0; why == null && i < farm.workers().size(); i++) {
            BuildingBlock worker = farm.workers().get(i);
            if (!isChain(worker) || worker instanceof MultiOutputNode<?, ?>) {
                why = "worker " + i + " is " + worker + ", but its workers must be nodes or pipelines of nodes"
                        + " with one output per item";
            }
        }
        if (why != null) {
            throw new GraphBuildException(farm + " " + stem + " is recoverable, so " + why);
        }
    }

    private void recordRecoverable(Vertex emitter, Vertex collector, List<Fragment> workers) {
        List<Edge> dispatch = new ArrayList<>();
        List<Edge> returns = new ArrayList<>();
        for (Fragment w : workers) {
            Vertex entry = w.entries.get(0);
            Vertex exit = w.exits.get(0);
            dispatch.add(findEdge(emitter, entry, Edge.Kind.FORWARD));
            returns.add(
                    collector != null
                            ? findEdge(exit, collector, Edge.Kind.FORWARD)
                            : findEdge(exit, emitter, Edge.Kind.FEEDBACK));
        }
        recoverableFarms.add(new RecoverableFarm(emitter, dispatch, returns));
    }

    private Edge findEdge(Vertex from, Vertex to, Edge.Kind kind) {
        for (Edge e : edges) {
            if (e.from() == from && e.to() == to && e.kind() == kind) {
                return e;
            }
        }
        throw new IllegalStateException("no " + kind + " edge from " + from + " to " + to);
    }

    private static boolean isChain(BuildingBlock block) {
        if (block instanceof Node) {
            return true;
        }
        if (block instanceof Pipeline p && !p.isWrapAround()) {
            return p.stages().stream().allMatch(GraphCompiler::isChain);
        }
        return false;
    }

    private Fragment allToAll(AllToAll a2a, boolean hasInput) {
        String stem = a2a.givenName() != null ? uniqueName(a2a.givenName()) : label("a2a");
        openCluster(stem, Cluster.Kind.ALL_TO_ALL);
        try {
            return allToAll(a2a, stem, hasInput);
        } finally {
            openClusters.pop();
        }
    }

    private void openCluster(String name, Cluster.Kind kind) {
        Cluster cluster = new Cluster(name, kind, openClusters.peek());
        clusters.add(cluster);
        openClusters.push(cluster);
    }

    private Fragment allToAll(AllToAll a2a, String stem, boolean hasInput) {
        if (a2a.firstSet().isEmpty() || a2a.secondSet().isEmpty()) {
            throw new GraphBuildException(a2a + " " + stem + ": an all-to-all needs at least one L-Worker"
                    + " (firstSet) and one R-Worker (secondSet)");
        }
        List<Vertex> lEntries = new ArrayList<>();
        List<Vertex> lExits = new ArrayList<>();
        for (int i = 0; i < a2a.firstSet().size(); i++) {
            Fragment l = compile(a2a.firstSet().get(i), stem + "-L" + i, i, hasInput || a2a.isWrapAround());
            requireChoosers(l, stem + " L-Worker " + i + " (" + a2a.firstSet().get(i) + ")");
            lEntries.addAll(l.entries);
            lExits.addAll(l.exits);
        }
        List<Vertex> rEntries = new ArrayList<>();
        List<Vertex> rExits = new ArrayList<>();
        for (int j = 0; j < a2a.secondSet().size(); j++) {
            Fragment r = compile(a2a.secondSet().get(j), stem + "-R" + j, j, true);
            rEntries.addAll(r.entries);
            rExits.addAll(r.exits);
        }
        if (lExits.isEmpty() || rEntries.isEmpty()) {
            throw new GraphBuildException(
                    a2a + " " + stem + ": every L-Worker needs an output and every R-Worker an input");
        }
        if (a2a.isRecoverable()) {
            checkRecoverable(a2a, stem, lExits, rEntries, rExits);
        }
        for (int i = 0; i < a2a.firstSet().size(); i++) {
            for (int j = 0; j < a2a.secondSet().size(); j++) {
                WiringTypes.check(
                        a2a.firstSet().get(i),
                        stem + " L-Worker " + i + " (" + a2a.firstSet().get(i) + ")",
                        a2a.secondSet().get(j),
                        stem + " R-Worker " + j + " (" + a2a.secondSet().get(j) + ")");
            }
        }
        List<List<Edge>> dispatch = new ArrayList<>();
        for (Vertex l : lExits) {
            List<Edge> row = new ArrayList<>();
            for (Vertex r : rEntries) {
                Edge e = new Edge(l, r, Edge.Kind.FORWARD, a2a.onDemandSlots(), true);
                edge(e);
                row.add(e);
            }
            dispatch.add(row);
        }
        if (a2a.isRecoverable()) {
            recoverableAllToAlls.add(new PendingAllToAll(a2a, stem, lExits, rEntries, rExits, dispatch));
        }
        if (a2a.isWrapAround()) {
            connect(
                    new Fragment(rEntries, rExits),
                    lEntries,
                    Edge.Kind.FEEDBACK,
                    0,
                    stem + " R-Workers",
                    stem + " L-Workers");
        }
        return new Fragment(lEntries, rExits, a2a.isWrapAround());
    }

    /** The rules of {@link AllToAll#recoverable()} that the all-to-all alone decides. */
    private static void checkRecoverable(
            AllToAll a2a, String stem, List<Vertex> lExits, List<Vertex> rEntries, List<Vertex> rExits) {
        String why = null;
        if (a2a.isWrapAround()) {
            why = "it cannot wrap around: its R-Workers' outputs go to the next stage";
        } else if (lExits.size() != a2a.firstSet().size()) {
            why = "its L-Workers must be nodes or pipelines of nodes (one sender each)";
        } else if (rEntries.size() != a2a.secondSet().size()
                || rExits.size() != a2a.secondSet().size()) {
            why = "its R-Workers must be nodes or pipelines of nodes";
        }
        for (int i = 0; why == null && i < a2a.firstSet().size(); i++) {
            BuildingBlock l = a2a.firstSet().get(i);
            if (!isChain(l) || lExits.get(i).node().isMultiOutput()) {
                why = "L-Worker " + i + " is " + l + ", but its L-Workers must be nodes or pipelines of nodes that"
                        + " do not choose channels (not a MultiOutputNode): an item must be free to go to any"
                        + " R-Worker when its own is lost";
            }
        }
        for (int j = 0; why == null && j < a2a.secondSet().size(); j++) {
            BuildingBlock r = a2a.secondSet().get(j);
            if (!isChain(r) || rExits.get(j).node().isMultiOutput()) {
                why = "R-Worker " + j + " is " + r + ", but its R-Workers must be nodes or pipelines of nodes"
                        + " with one output per item (not a MultiOutputNode)";
            }
        }
        if (why != null) {
            throw new GraphBuildException(a2a + " " + stem + " is recoverable, so " + why);
        }
    }

    /** A recoverable all-to-all whose R-Workers' next stage is not compiled yet. */
    private record PendingAllToAll(
            AllToAll a2a,
            String stem,
            List<Vertex> senders,
            List<Vertex> entries,
            List<Vertex> exits,
            List<List<Edge>> dispatch) {
        /** Its edges, once the whole tree is compiled; checks where the R-Workers' outputs go. */
        RecoverableAllToAll resolve() {
            String home = senders.get(0).group();
            for (int i = 1; i < senders.size(); i++) {
                if (!Objects.equals(home, senders.get(i).group())) {
                    throw refused("its L-Workers must all be in one group, but L-Worker 0 is in group " + home
                            + " and L-Worker " + i + " in group "
                            + senders.get(i).group());
                }
            }
            List<Edge> returns = new ArrayList<>();
            for (int j = 0; j < exits.size(); j++) {
                Vertex exit = exits.get(j);
                if (exit.forwardOut().size() != 1 || !exit.feedbackOut().isEmpty()) {
                    throw refused("each R-Worker's outputs must go on one edge to the next stage, but R-Worker " + j
                            + " (" + exit.name() + ") has "
                            + (exit.forwardOut().size() + exit.feedbackOut().size())
                            + ": follow it with one node, or a block as wide as the R-Workers");
                }
                Edge out = exit.forwardOut().get(0);
                if (!Objects.equals(home, out.to().group())) {
                    throw refused("the consumer of its R-Workers' outputs must be in its L-Workers' group " + home
                            + ", but " + out.to().name() + " is in group "
                            + out.to().group());
                }
                returns.add(out);
            }
            return new RecoverableAllToAll(stem, senders, entries, dispatch, returns);
        }

        private GraphBuildException refused(String why) {
            return new GraphBuildException(a2a + " " + stem + " is recoverable, so " + why);
        }
    }

    /**
     * A wrapped block's exits already send their default output back; to feed a next stage as well they
     * must choose per item (sendOutTo forward, sendFeedbackTo back), so they must be multi-output.
     */
    private static void requireChoosers(Fragment from, String where) {
        if (!from.wrapped) {
            return;
        }
        for (Vertex v : from.exits) {
            if (!v.node().isMultiOutput()) {
                throw new GraphBuildException(where + " wraps around, so " + v.name() + " (" + v.node() + ") sends its"
                        + " results back; to also feed the next stage it must be a MultiOutputNode that chooses"
                        + " with sendOutTo (forward) and sendFeedbackTo (back)");
            }
        }
    }

    /** Rules 1-3: one edge, fan in/out, one-to-one for equal widths, else a full shuffle. */
    private void connect(Fragment source, List<Vertex> entries, Edge.Kind kind, int slots, String from, String to) {
        if (kind == Edge.Kind.FORWARD) {
            requireChoosers(source, from);
        }
        List<Vertex> exits = source.exits;
        if (exits.isEmpty()) {
            throw new GraphBuildException(to + " needs an input, but " + from + " has no output");
        }
        if (entries.isEmpty()) {
            throw new GraphBuildException(from + " produces output, but " + to
                    + " takes no input (a farm of source workers can only be a first stage)");
        }
        // Exits that choose their channels need every entry. Forward, FastFlow also asks the entries to
        // be multi-input; feedback entries are loop heads, which FastFlow treats as multi-input anyway.
        boolean exitsChoose = exits.stream().allMatch(v -> v.node().isMultiOutput());
        boolean bothChoose = exitsChoose
                && (kind == Edge.Kind.FEEDBACK
                        || entries.stream().allMatch(v -> v.node().isMultiInput()));
        if (exits.size() == entries.size() && exits.size() > 1 && !bothChoose) {
            for (int k = 0; k < exits.size(); k++) {
                edge(exits.get(k), entries.get(k), kind, slots);
            }
            return;
        }
        for (Vertex x : exits) {
            for (Vertex y : entries) {
                edge(x, y, kind, slots);
            }
        }
    }

    private void edge(Vertex from, Vertex to, Edge.Kind kind, int slots) {
        edge(new Edge(from, to, kind, slots));
    }

    private void edge(Edge e) {
        e.from().addOut(e);
        e.to().addIn(e);
        edges.add(e);
    }

    private Vertex leaf(Node<?, ?> node, String place, int id) {
        return leaf(node, place, id, false);
    }

    private Vertex leaf(Node<?, ?> node, String place, int id, boolean generated) {
        if (!generated) {
            registerParts(node, place);
        }
        Vertex v = new Vertex(vertices.size(), vertexName(node, place, generated), node, id, currentGroup);
        vertices.add(v);
        if (!openClusters.isEmpty()) {
            openClusters.peek().add(v);
        }
        return v;
    }

    /**
     * The node's name, or its place for a node without one; a name given twice gets a suffix (the second
     * {@code parser} is {@code parser#2}), as a name is the thread's, the stats' key and the DOT node's.
     */
    private String vertexName(Node<?, ?> node, String place, boolean generated) {
        String given = generated ? null : node.givenName();
        if (given == null) {
            return "ff-" + place;
        }
        return uniqueName(given);
    }

    /** {@code given}, or {@code given#2}, {@code given#3}... when that name is taken already. */
    private String uniqueName(String given) {
        int seen = givenNames.merge(given, 1, Integer::sum);
        return seen == 1 ? given : given + "#" + seen;
    }

    private void registerParts(Node<?, ?> node, String place) {
        checkOnce(node, place);
        if (node instanceof Combiner<?, ?> c) {
            WiringTypes.check(c, "combiner at " + place);
            registerParts(c.first(), place);
            registerParts(c.second(), place);
        }
    }

    private void checkOnce(BuildingBlock block, String where) {
        String previous = placed.putIfAbsent(block, where);
        if (previous != null) {
            throw new GraphBuildException(block + " is used twice (at " + previous + " and at " + where
                    + "): a block or node can appear only once in a tree; create another instance");
        }
    }

    private String label(String kind) {
        int n = labels.merge(kind, 1, Integer::sum);
        return kind + n;
    }
}
