package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Two sets of workers joined by a full shuffle: every L-Worker has a channel to every R-Worker.
 *
 * <pre>
 *   ──▶ L0 ──┬──▶ R0 ──▶
 *        ╲   ├──▶ R1 ──▶          L-Workers route by round-robin (default), on-demand, or themselves
 *   ──▶ L1 ──┴──▶ R2 ──▶          as {@link MultiOutputNode}s (by key, broadcast, ...)
 *   ▲                 │
 *   └── wrapAround() ─┘           R → L feedback, sendFeedbackTo(item, lIndex)
 * </pre>
 *
 * <p>Members may be nodes, combiners or pipelines. R-Worker {@code j} sees L-Worker {@code i} as its
 * input channel {@code i}; L-Worker {@code i} sees R-Worker {@code j} as its output channel {@code j}.
 *
 * <p>In a distributed program a group created from the all-to-all that includes only R-Workers, while no
 * group of it takes an L-Worker, moves them out of the group that holds the all-to-all, as a farm's worker
 * groups do ({@link #recoverable()} lets the run lose such a group).
 */
public final class AllToAll extends BuildingBlock {
    private final List<BuildingBlock> firstSet = new ArrayList<>();
    private final List<BuildingBlock> secondSet = new ArrayList<>();
    private int onDemandSlots;
    private boolean wrapAround;
    private boolean recoverable;

    public AllToAll() {}

    public AllToAll firstSet(BuildingBlock... members) {
        return firstSet(List.of(members));
    }

    public AllToAll firstSet(List<? extends BuildingBlock> members) {
        add(firstSet, members);
        return this;
    }

    public AllToAll secondSet(BuildingBlock... members) {
        return secondSet(List.of(members));
    }

    public AllToAll secondSet(List<? extends BuildingBlock> members) {
        add(secondSet, members);
        return this;
    }

    /** On-demand distribution from L to R with one slot per channel. */
    public AllToAll onDemand() {
        return onDemand(1);
    }

    /** On-demand distribution from L to R with {@code slots} per channel. */
    public AllToAll onDemand(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("onDemand(" + slots + "): a channel needs at least 1 slot");
        }
        this.onDemandSlots = slots;
        return this;
    }

    /**
     * Feedback channels from the R-Workers back to the L-Workers: from each multi-output R-Worker to
     * every L-Worker; from plain R-Workers one to one when both sets have the same size, else to every
     * L-Worker.
     */
    public AllToAll wrapAround() {
        this.wrapAround = true;
        return this;
    }

    /**
     * The all-to-all survives the loss of a group that holds some of its R-Workers (a distributed run, see
     * ff-dist's {@code docs/distributed.md}, "Losing a worker group"): each item an L-Worker sends to a
     * remote R-Worker is kept until that R-Worker's output for it arrives (the output names the item by its
     * L-Worker and sequence on the wire), and a lost R-Worker's unfinished items go back to their L-Workers,
     * which send them to the R-Workers that are left. In one process it changes nothing.
     *
     * <p>R-Workers move to groups of their own as a farm's workers do: {@code
     * a2a.createGroup("W1").include(r1)} takes R-Worker {@code r1} out of the group that holds the
     * all-to-all (its home). The rules, checked when the graph is built: L-Workers and R-Workers are nodes or pipelines
     * of nodes that do not choose channels (not {@link MultiOutputNode}s); every R-Worker sends exactly one
     * output per item, on one edge to the next stage, and has no side effect outside that output; the
     * all-to-all does not wrap around; in a distributed run its L-Workers and the consumer of the R-Workers'
     * outputs are in one group.
     */
    public AllToAll recoverable() {
        this.recoverable = true;
        return this;
    }

    /** Whether {@link #recoverable()} was asked for. */
    public boolean isRecoverable() {
        return recoverable;
    }

    public List<BuildingBlock> firstSet() {
        return Collections.unmodifiableList(firstSet);
    }

    public List<BuildingBlock> secondSet() {
        return Collections.unmodifiableList(secondSet);
    }

    public boolean isOnDemand() {
        return onDemandSlots > 0;
    }

    public int onDemandSlots() {
        return onDemandSlots;
    }

    public boolean isWrapAround() {
        return wrapAround;
    }

    @Override
    public String toString() {
        return "AllToAll(" + firstSet.size() + "x" + secondSet.size() + ")";
    }

    private static void add(List<BuildingBlock> set, List<? extends BuildingBlock> members) {
        for (BuildingBlock member : members) {
            set.add(Objects.requireNonNull(member, "member"));
        }
    }

    /** Names the block's cluster and the stem of its threads' names ({@link BuildingBlock#named}). */
    @Override
    public AllToAll named(String name) {
        super.named(name);
        return this;
    }
}
