package org.fastflowj.core.optimize;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Copies of blocks with some parts replaced, and the questions every rewrite asks. The user's tree is
 * never changed: a rewrite builds new blocks around the same nodes, so the program can still be run as
 * written, and a block is never shared between the two trees of one run.
 */
final class Trees {
    private Trees() {}

    /** Whether {@code block} or anything below it created a distributed group: such a subtree is run as written. */
    static boolean hasGroups(BuildingBlock block) {
        if (!block.groups().isEmpty()) {
            return true;
        }
        for (BuildingBlock child : children(block)) {
            if (hasGroups(child)) {
                return true;
            }
        }
        return false;
    }

    static List<BuildingBlock> children(BuildingBlock block) {
        if (block instanceof Pipeline p) {
            return p.stages();
        }
        if (block instanceof Farm f) {
            return f.workers();
        }
        if (block instanceof AllToAll a) {
            List<BuildingBlock> all = new java.util.ArrayList<>(a.firstSet());
            all.addAll(a.secondSet());
            return all;
        }
        return List.of();
    }

    /** A farm that feeds its own emitter: its emitter is a loop head, so nothing may be put in front of it. */
    static boolean loops(Farm farm) {
        return farm.isWrapAround() || farm.hasFeedbackFromWorkers();
    }

    /**
     * Whether {@code first} then {@code second} can run as one {@link Combiner} with the same meaning: the
     * first must have one output (only a combiner's second node owns output channels) and the second one
     * input (in a combiner a multi-input second node would see the first's input channels).
     */
    static boolean fusible(BuildingBlock first, BuildingBlock second) {
        return first instanceof Node<?, ?> a
                && second instanceof Node<?, ?> b
                && !a.isMultiOutput()
                && !b.isMultiInput();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Node<?, ?> combine(Node<?, ?> first, Node<?, ?> second) {
        Node<?, ?> fused = Combiner.of((Node) first, (Node) second);
        // The fused thread keeps the names of its parts: "parse+count", or the one name given.
        String name = Stream.of(first.givenName(), second.givenName())
                .filter(Objects::nonNull)
                .collect(Collectors.joining("+"));
        return name.isEmpty() ? fused : fused.named(name);
    }

    /** Nodes fused left to right: {@code ((n0 n1) n2) ...}, so every inner combiner keeps one output. */
    static Node<?, ?> combineAll(List<? extends BuildingBlock> nodes) {
        Node<?, ?> fused = (Node<?, ?>) nodes.get(0);
        for (int i = 1; i < nodes.size(); i++) {
            fused = combine(fused, (Node<?, ?>) nodes.get(i));
        }
        return fused;
    }

    /**
     * A farm with {@code template}'s scheduling, order, feedback, affinity and recoverability, and the given
     * parts ({@code null}: none).
     */
    static Farm farm(Farm template, Node<?, ?> emitter, List<? extends BuildingBlock> workers, Node<?, ?> collector) {
        Farm copy = Farm.of(workers);
        keepName(template, copy);
        if (emitter != null) {
            copy.emitter(emitter);
        }
        if (collector != null) {
            copy.collector(collector);
        }
        if (template.isOnDemand()) {
            copy.onDemand(template.onDemandSlots());
        }
        if (template.isOrdered()) {
            copy.ordered(template.maxInFlight());
        }
        if (template.isWrapAround()) {
            copy.wrapAround();
        }
        if (template.hasFeedbackFromWorkers()) {
            copy.feedbackFromWorkers();
        }
        if (template.workerAffinity() != null) {
            copy.affinity(template.affinitySets(), template.workerAffinity());
        }
        if (template.isRecoverable()) {
            copy.recoverable();
        }
        return copy;
    }

    static AllToAll allToAll(AllToAll template, List<BuildingBlock> firstSet, List<BuildingBlock> secondSet) {
        AllToAll copy = new AllToAll().firstSet(firstSet).secondSet(secondSet);
        keepName(template, copy);
        if (template.isOnDemand()) {
            copy.onDemand(template.onDemandSlots());
        }
        if (template.isWrapAround()) {
            copy.wrapAround();
        }
        return copy;
    }

    static Pipeline pipeline(Pipeline template, List<BuildingBlock> stages) {
        Pipeline copy = new Pipeline();
        keepName(template, copy);
        stages.forEach(copy::add);
        if (template.isWrapAround()) {
            copy.wrapAround();
        }
        return copy;
    }

    private static void keepName(BuildingBlock template, BuildingBlock copy) {
        if (template.givenName() != null) {
            copy.named(template.givenName());
        }
    }
}
