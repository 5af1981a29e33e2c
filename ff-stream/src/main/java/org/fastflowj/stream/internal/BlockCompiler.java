package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
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
 */
public final class BlockCompiler {
    private BlockCompiler() {}

    /** The block that runs every stream ending at {@code sinks}. */
    public static BuildingBlock compile(List<Transform> sinks) {
        List<BuildingBlock> jobs = new ArrayList<>();
        for (Transform sink : sinks) {
            jobs.add(pipeline(build(parts(sink), null)));
        }
        return jobs.size() == 1 ? jobs.get(0) : Farm.of(jobs);
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
            } else if (part instanceof Stage stage && stage.chain().size() > 1) {
                List<String> names = stage.chain().stream().map(t -> t.name).toList();
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
    private static List<BuildingBlock> build(List<Part> parts, Exchange exit) {
        List<BuildingBlock> blocks = new ArrayList<>();
        for (int k = 0; k < parts.size(); k++) {
            Part part = parts.get(k);
            if (part instanceof Through through) {
                blocks.add(through.block());
            } else if (part instanceof Union union) {
                Exchange entry = ((Stage) parts.get(k + 1)).entry();
                List<BuildingBlock> inputs = new ArrayList<>();
                for (List<Part> input : union.inputs()) {
                    inputs.add(pipeline(build(input, entry)));
                }
                blocks.add(Farm.of(inputs));
            } else {
                Stage stage = (Stage) part;
                Part next = k + 1 < parts.size() ? parts.get(k + 1) : null;
                List<Node<Object, Object>> instances = instances(stage, exitTo(parts, k, exit));
                // After a block the stage's instances cannot route their own input: the block's exits are not
                // routers. Then the stage stands alone, behind an entry node that routes for it.
                boolean afterBlock = k > 0 && parts.get(k - 1) instanceof Through;
                if (next instanceof Stage nextStage && !(afterBlock && stage.parallelism() > 1)) {
                    blocks.add(new AllToAll()
                            .firstSet(instances)
                            .secondSet(instances(nextStage, exitTo(parts, k + 1, exit))));
                    k++;
                } else {
                    blocks.add(lone(stage, instances));
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

    private static BuildingBlock lone(Stage stage, List<Node<Object, Object>> instances) {
        if (instances.size() == 1) {
            return instances.get(0);
        }
        if (stage.head().kind == Transform.Kind.SOURCE) {
            return Farm.of(instances);
        }
        // A parallel stage with no stage before it to pair with (after a block): one node takes the inputs in
        // and routes them, as the L-Worker of its own all-to-all.
        Node<Object, Object> entry = Combiner.of(new HeadNode(), new RouterNode(stage.entry(), stage.head().name));
        entry.named("to " + stage.head().name);
        return new AllToAll().firstSet(entry).secondSet(instances);
    }

    private static List<Node<Object, Object>> instances(Stage stage, Exchange exit) {
        List<Node<Object, Object>> instances = new ArrayList<>();
        boolean throughNext = exit == null && stage.chain().get(stage.chain().size() - 1).consumer != null;
        for (int i = 0; i < stage.parallelism(); i++) {
            List<Node<Object, Object>> nodes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            Transform head = stage.head();
            if (head.kind != Transform.Kind.SOURCE) {
                nodes.add(new HeadNode());
            }
            for (Transform t : stage.chain()) {
                nodes.add(node(t, i));
                names.add(t.name);
            }
            if (exit != null) {
                nodes.add(new RouterNode(exit, "after " + String.join("+", names)));
            } else if (throughNext) {
                nodes.add(new StripNode());
            }
            Node<Object, Object> instance = fuse(nodes);
            String name = String.join("+", names);
            instance.named(stage.parallelism() == 1 ? name : name + "[" + i + "]");
            instances.add(instance);
        }
        return instances;
    }

    @SuppressWarnings("unchecked")
    private static Node<Object, Object> node(Transform t, int instance) {
        return switch (t.kind) {
            case SOURCE -> (Node<Object, Object>) (Node<?, ?>) new SourceNode(t.source, t.info(instance));
            case SINK -> new SinkNode(t.sink, t.info(instance));
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
