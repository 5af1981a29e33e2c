package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Compiles the logical plan onto ff-core's blocks.
 *
 * <pre>
 *  source ─▶ map ─▶ withTimestamps ═keyBy═▶ window (p=4) ─▶ map ═▶ sink
 *  └──────── stage 0 (p=1) ────────┘        └─ stage 1 ──────┘     stage 2
 *  stages 0 and 1: an all-to-all (stage 0's router as L-Worker, stage 1's instances as R-Workers);
 *  stage 1's routers fan in to stage 2's node.
 * </pre>
 *
 * <p>Neighbouring operators joined by a forward edge with equal parallelism form a stage; each instance
 * of a stage is one node, the stage's operators fused by {@link Combiner} (one thread). A stage with
 * inputs starts with a {@link HeadNode} (watermark = minimum over its inputs); a stage whose records
 * are shuffled to the next one ends with a {@link RouterNode}. Consecutive stages pair up as the two
 * sets of an {@link AllToAll}; between two blocks, multi-output exits and multi-input entries make
 * ff-core join every exit to every entry, so each router reaches every instance of the next stage.
 *
 * <p>Late records and dead letters go down their stream as {@link SideRecord}s to its sink node, which
 * writes them; those of operators before a block stop at it ({@link StripNode}). Each compilation counts
 * each side sink's writers, so a sink node knows the side sinks it alone writes and snapshots with its own.
 *
 * <p>Groups (ff-dist): when a stage has a group, the whole job is the home group {@link #HOME_GROUP}
 * (created from the root) and each stage of another group leaves it as worker groups do: as the
 * R-Workers of its all-to-all ({@code a2a.createGroup(g).include(r)}), or as the workers of a farm of
 * sources. So the pairing keeps such a stage second: a stage of another group never pairs as the first
 * set, and a home stage stays alone when the stage after next is of another group. A grouped stage
 * that still has no stage to pair with stands behind an entry node of the home group that routes for
 * it. A group other than the home one holds one stage (ff-dist creates a group once).
 */
public final class BlockCompiler {
    /** The group of the stages given none, when some stage has one. */
    public static final String HOME_GROUP = "main";

    private BlockCompiler() {}

    /**
     * The block that runs every stream ending at {@code sinks}.
     *
     * @param sideSinks the job's side sinks, by {@link SideSink#index}
     * @param maxWatermarkDrift how far one input of an operator with several inputs may run ahead of the
     *     slowest before it is read no more until that one catches up ({@link HeadNode}); MAX: no alignment
     */
    public static BuildingBlock compile(List<Transform> sinks, List<SideSink<?>> sideSinks, long maxWatermarkDrift) {
        Layout layout = new Layout(maxWatermarkDrift, sideSinks);
        List<List<Part>> partsOfSinks = new ArrayList<>();
        sideSinks.forEach(SideSink::clearRoutes);
        for (Transform sink : sinks) {
            List<Part> parts = parts(sink);
            layout.check(parts, sinks.size());
            Set<SideSink<?>> reaching = new LinkedHashSet<>();
            routeSideRecords(parts, reaching);
            reaching.forEach(SideSink::reachesSinkNode);
            sink.sideSinksReaching = List.copyOf(reaching);
            partsOfSinks.add(parts);
        }
        // Every side sink's routes are known before any sink node is made: each knows which it alone writes.
        List<BuildingBlock> jobs = new ArrayList<>();
        for (List<Part> parts : partsOfSinks) {
            jobs.add(pipeline(build(parts, null, layout)));
        }
        BuildingBlock root = jobs.size() == 1 ? jobs.get(0) : Farm.of(jobs);
        if (layout.grouped) {
            root.createGroup(HOME_GROUP);
        }
        return root;
    }

    /**
     * Adds to {@code reaching} the side sinks whose records come down {@code parts} to their end; those of
     * operators before a block stop at it, where the node that hands the block its values writes them.
     */
    private static void routeSideRecords(List<Part> parts, Set<SideSink<?>> reaching) {
        for (Part part : parts) {
            if (part instanceof Union union) {
                for (List<Part> input : union.inputs()) {
                    routeSideRecords(input, reaching);
                }
            } else if (part instanceof Stage stage) {
                for (Transform t : stage.chain()) {
                    t.sideSinks(reaching);
                }
            } else {
                reaching.forEach(SideSink::writtenBeforeBlock);
                reaching.clear();
            }
        }
    }

    /**
     * The group of each stage, checked for the shapes ff-dist's group rules accept; null for the home group.
     * Stages outside ff-dist's reach of worker groups (before a union or a join, in a job of several sinks)
     * must stay home.
     */
    private static final class Layout {
        private final Map<String, Stage> stageOfGroup = new HashMap<>();
        private final Map<Stage, String> groupOfStage = new IdentityHashMap<>();
        private final long maxWatermarkDrift;
        final List<SideSink<?>> sideSinks;
        boolean grouped;

        Layout(long maxWatermarkDrift, List<SideSink<?>> sideSinks) {
            this.maxWatermarkDrift = maxWatermarkDrift;
            this.sideSinks = sideSinks;
        }

        /** A stage's first node, which takes its inputs' watermarks in. */
        HeadNode head() {
            return new HeadNode(maxWatermarkDrift);
        }

        void check(List<Part> parts, int sinkCount) {
            for (Part part : parts) {
                if (part instanceof Union union) {
                    for (List<Part> input : union.inputs()) {
                        checkInsideFarm(
                                input,
                                "feeds a union or a join: the operators before an operator of several inputs run"
                                        + " in the home group " + HOME_GROUP + "; group that operator or one after it");
                    }
                } else if (part instanceof Stage stage) {
                    String group = groupOf(stage);
                    if (group == null) {
                        continue;
                    }
                    grouped = true;
                    if (sinkCount > 1) {
                        throw new IllegalArgumentException(named(stage, group) + ", but the job has " + sinkCount
                                + " sinks: a job run in groups ends in one sink (late and dead-letter sinks aside)");
                    }
                    Stage other = stageOfGroup.putIfAbsent(group, stage);
                    if (other != null) {
                        throw new IllegalArgumentException(named(stage, group) + " and so does '" + other.head().name
                                + "', in another stage: a group other than the home group " + HOME_GROUP
                                + " holds one stage (operators fused by a forward edge of equal parallelism); give"
                                + " one of them another group");
                    }
                    groupOfStage.put(stage, group);
                }
            }
        }

        private void checkInsideFarm(List<Part> parts, String why) {
            for (Part part : parts) {
                if (part instanceof Union union) {
                    for (List<Part> input : union.inputs()) {
                        checkInsideFarm(input, why);
                    }
                } else if (part instanceof Stage stage && groupOf(stage) != null) {
                    throw new IllegalArgumentException(named(stage, groupOf(stage)) + " but " + why);
                }
            }
        }

        /** The stage's group other than the home group, or null; its operators must agree. */
        private static String groupOf(Stage stage) {
            Transform grouped = null;
            for (Transform t : stage.chain()) {
                if (t.group == null) {
                    continue;
                }
                if (grouped != null && !grouped.group.equals(t.group)) {
                    throw new IllegalArgumentException("'" + grouped.name + "' is set to run in group "
                            + grouped.group + " and '" + t.name + "' in group " + t.group + ", but they are fused into"
                            + " one stage (one thread per instance): give them one group, or split them with"
                            + " rebalance() or another parallelism");
                }
                grouped = t;
            }
            return grouped == null || grouped.group.equals(HOME_GROUP) ? null : grouped.group;
        }

        private static String named(Stage stage, String group) {
            for (Transform t : stage.chain()) {
                if (group.equals(t.group)) {
                    return "'" + t.name + "' is set to run in group " + group;
                }
            }
            return "'" + stage.head().name + "' is set to run in group " + group;
        }

        String group(Part part) {
            return part instanceof Stage stage ? groupOfStage.get(stage) : null;
        }

        /** {@code instances} of {@code stage}, the workers of {@code parent}, run in the stage's group. */
        void place(Stage stage, BuildingBlock parent, List<Node<Object, Object>> instances) {
            String group = groupOfStage.get(stage);
            if (group != null) {
                Group g = parent.createGroup(group);
                instances.forEach(g::include);
            }
        }
    }

    /**
     * One line per stage of several operators, each instance of which {@link #compile} fuses into one
     * node: which operators, the node's name, the parallelism.
     */
    public static List<String> fusions(List<Transform> sinks) {
        List<String> lines = new ArrayList<>();
        for (Transform sink : sinks) {
            fusions(parts(sink), lines);
        }
        return lines;
    }

    private static void fusions(List<Part> parts, List<String> lines) {
        for (Part part : parts) {
            if (part instanceof Union union) {
                union.inputs().forEach(input -> fusions(input, lines));
            } else if (part instanceof Stage stage && stage.operators().size() > 1) {
                List<String> names =
                        stage.operators().stream().map(BlockCompiler::nodeName).toList();
                lines.add(String.format(
                        "fused %s into node %s: neighbours of parallelism %d, one thread per instance",
                        String.join(" -> ", names), String.join("+", names), stage.parallelism()));
            }
        }
    }

    private sealed interface Part permits Stage, Through, Union {}

    private record Stage(List<Transform> chain) implements Part {
        Transform head() {
            return chain.get(0);
        }

        int parallelism() {
            return head().parallelism;
        }

        Exchange entry() {
            Exchange exchange = head().exchange;
            return exchange.kind() == Exchange.Kind.FORWARD ? Exchange.REBALANCE : exchange;
        }

        /** The chain's operators that run: a window's first stage fused with its window has nothing to save. */
        List<Transform> operators() {
            return chain.stream()
                    .filter(t -> !t.isFirstStage || !chain.contains(t.consumer))
                    .toList();
        }
    }

    /** An operator's part of its node's name. */
    private static String nodeName(Transform t) {
        return t.isFirstStage ? t.name + "/partial" : t.name;
    }

    private record Through(BuildingBlock block) implements Part {}

    private record Union(List<List<Part>> inputs) implements Part {}

    private static List<Part> parts(Transform last) {
        if (last.kind == Transform.Kind.THROUGH) {
            List<Part> parts = parts(last.inputs.get(0));
            parts.add(new Through(last.block));
            return parts;
        }
        List<Transform> chain = new ArrayList<>(List.of(last));
        Transform head = last;
        while (fusesWithInput(head)) {
            head = head.inputs.get(0);
            chain.add(0, head);
        }
        List<Part> parts = new ArrayList<>();
        if (head.inputs.size() == 1) {
            parts.addAll(parts(head.inputs.get(0)));
        } else if (head.inputs.size() > 1) {
            List<List<Part>> inputs = new ArrayList<>();
            for (Transform input : head.inputs) {
                inputs.add(parts(input));
            }
            parts.add(new Union(inputs));
        }
        parts.add(new Stage(chain));
        return parts;
    }

    private static boolean fusesWithInput(Transform t) {
        if (t.inputs.size() != 1 || t.kind == Transform.Kind.SOURCE) {
            return false;
        }
        // One instance on each side needs no routing, whatever the exchange: the records stay in one thread.
        Transform input = t.inputs.get(0);
        return input.kind != Transform.Kind.THROUGH
                && input.parallelism == t.parallelism
                && (t.exchange.kind() == Exchange.Kind.FORWARD || t.parallelism == 1);
    }

    /**
     * The blocks of {@code parts} in order; {@code exit} is how the last stage hands its records on (null:
     * it ends the stream).
     */
    private static List<BuildingBlock> build(List<Part> parts, Exchange exit, Layout layout) {
        List<BuildingBlock> blocks = new ArrayList<>();
        for (int k = 0; k < parts.size(); k++) {
            Part part = parts.get(k);
            if (part instanceof Through through) {
                blocks.add(through.block());
            } else if (part instanceof Union union) {
                Exchange entry = ((Stage) parts.get(k + 1)).entry();
                List<BuildingBlock> inputs = new ArrayList<>();
                for (List<Part> input : union.inputs()) {
                    inputs.add(pipeline(build(input, entry, layout)));
                }
                blocks.add(Farm.of(inputs));
            } else {
                Stage stage = (Stage) part;
                Part next = k + 1 < parts.size() ? parts.get(k + 1) : null;
                List<Node<Object, Object>> instances = instances(stage, exitTo(parts, k, exit), layout);
                // After a block the stage's instances cannot route their own input: the block's exits are not
                // routers. Then the stage stands alone, behind an entry node that routes for it.
                boolean afterBlock = k > 0 && parts.get(k - 1) instanceof Through;
                // A stage of another group goes only as a second set; the home stage before it stays alone for it.
                boolean keptSecond = layout.group(stage) != null
                        || (k + 2 < parts.size()
                                && layout.group(parts.get(k + 2)) != null
                                && layout.group(next) == null);
                if (next instanceof Stage nextStage && !(afterBlock && stage.parallelism() > 1) && !keptSecond) {
                    List<Node<Object, Object>> second = instances(nextStage, exitTo(parts, k + 1, exit), layout);
                    AllToAll a2a = new AllToAll().firstSet(instances).secondSet(second);
                    layout.place(nextStage, a2a, second);
                    blocks.add(a2a);
                    k++;
                } else {
                    blocks.add(lone(stage, instances, layout));
                }
            }
        }
        return blocks;
    }

    private static Exchange exitTo(List<Part> parts, int k, Exchange exit) {
        if (k + 1 == parts.size()) {
            return exit;
        }
        Part next = parts.get(k + 1);
        return next instanceof Stage stage ? stage.entry() : null;
    }

    private static BuildingBlock lone(Stage stage, List<Node<Object, Object>> instances, Layout layout) {
        boolean elsewhere = layout.group(stage) != null;
        if (instances.size() == 1 && !elsewhere) {
            return instances.get(0);
        }
        if (stage.head().kind == Transform.Kind.SOURCE) {
            Farm sources = Farm.of(instances);
            layout.place(stage, sources, instances);
            return sources;
        }
        // A parallel stage with no stage before it to pair with (after a block), or a stage of another group
        // with none: one node takes the inputs in and routes them, as the L-Worker of its own all-to-all.
        Node<Object, Object> entry = Combiner.of(layout.head(), new RouterNode(stage.entry(), stage.head().name));
        entry.named("to " + stage.head().name);
        AllToAll a2a = new AllToAll().firstSet(entry).secondSet(instances);
        layout.place(stage, a2a, instances);
        return a2a;
    }

    private static List<Node<Object, Object>> instances(Stage stage, Exchange exit, Layout layout) {
        List<Node<Object, Object>> instances = new ArrayList<>();
        boolean throughNext = exit == null && stage.chain().get(stage.chain().size() - 1).consumer != null;
        for (int i = 0; i < stage.parallelism(); i++) {
            List<Node<Object, Object>> nodes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            Transform head = stage.head();
            if (head.kind != Transform.Kind.SOURCE) {
                nodes.add(layout.head());
            }
            for (Transform t : stage.operators()) {
                nodes.add(node(t, i, layout.sideSinks));
                names.add(nodeName(t));
            }
            chain(nodes);
            if (exit != null) {
                nodes.add(new RouterNode(exit, "after " + String.join("+", names)));
            } else if (throughNext) {
                nodes.add(new StripNode(layout.sideSinks));
            }
            Node<Object, Object> instance = fuse(nodes);
            String name = String.join("+", names);
            instance.named(stage.parallelism() == 1 ? name : name + "[" + i + "]");
            instances.add(instance);
        }
        return instances;
    }

    /** Links each operator to the next one in its node, which then takes its output directly. */
    private static void chain(List<Node<Object, Object>> nodes) {
        for (int k = 0; k + 1 < nodes.size(); k++) {
            if (nodes.get(k + 1) instanceof OperatorNode following) {
                if (nodes.get(k) instanceof OperatorNode operator) {
                    operator.chainTo(following);
                } else if ((Node<?, ?>) nodes.get(k) instanceof SourceNode source) {
                    source.chainTo(following);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Node<Object, Object> node(Transform t, int instance, List<SideSink<?>> sideSinks) {
        return switch (t.kind) {
            case SOURCE -> (Node<Object, Object>) (Node<?, ?>) new SourceNode(t.source, t.info(instance));
            case SINK -> new SinkNode(t.sink, t.info(instance), sideSinks, t.sideSinksReaching);
            case OPERATOR -> new OperatorNode(t.operators.apply(instance), t.info(instance), t.errors);
            case THROUGH -> throw new IllegalStateException("a block is not a stage's operator");
        };
    }

    private static Node<Object, Object> fuse(List<Node<Object, Object>> nodes) {
        Node<Object, Object> fused = nodes.get(0);
        for (int i = 1; i < nodes.size(); i++) {
            fused = Combiner.of(fused, nodes.get(i));
        }
        return fused;
    }

    private static BuildingBlock pipeline(List<BuildingBlock> blocks) {
        return blocks.size() == 1 && blocks.get(0) instanceof Pipeline
                ? blocks.get(0)
                : new Pipeline(blocks.toArray(BuildingBlock[]::new));
    }
}
