package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Functional replication: an emitter hands each input item to one of the workers, an optional collector
 * gathers their outputs.
 *
 * <pre>
 *                 ┌──▶ worker0 ──┐
 *   ──▶ emitter ──┼──▶ worker1 ──┼──▶ collector ──▶
 *        ▲        └──▶ worker2 ──┘        │
 *        └──────── wrapAround() ──────────┘   (from the collector, or from the workers if none)
 * </pre>
 *
 * <ul>
 *   <li>Emitter: a default one forwards items unless you set your own; a {@link MultiOutputNode}
 *       emitter routes items itself with {@code sendOutTo(item, worker)}. A farm with no input and no
 *       emitter has source workers.
 *   <li>Policy: round-robin (default; a full worker is skipped), or {@link #onDemand()}: a worker gets a
 *       task only when it has a free slot (input queues of 1 slot, or {@code slots}).
 *   <li>{@link #ordered()}: outputs leave the collector in input order whatever the workers' speed; a
 *       worker may filter ({@code goOn()}) or emit several items per task. At most {@code maxInFlight}
 *       tasks are between emitter and collector, which bounds the reorder memory.
 *   <li>Without a collector the workers' outputs go straight to the next stage (which then has several
 *       input channels).
 * </ul>
 */
public final class Farm extends BuildingBlock {
    /** Default bound on tasks in flight in an ordered farm. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 1024;

    private final List<BuildingBlock> workers = new ArrayList<>();
    private Node<?, ?> emitter;
    private Node<?, ?> collector;
    private int onDemandSlots;
    private boolean ordered;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private boolean wrapAround;
    private boolean feedbackFromWorkers;
    private boolean recoverable;
    private WorkerAffinity affinity;
    private int[][] affinitySets;

    private Farm(List<? extends BuildingBlock> workers) {
        for (BuildingBlock worker : workers) {
            this.workers.add(Objects.requireNonNull(worker, "worker"));
        }
    }

    public static Farm of(BuildingBlock... workers) {
        return new Farm(List.of(workers));
    }

    public static Farm of(List<? extends BuildingBlock> workers) {
        return new Farm(workers);
    }

    /** A farm of {@code count} workers, each made by {@code factory}. */
    public static Farm of(int count, Supplier<? extends BuildingBlock> factory) {
        List<BuildingBlock> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(factory.get());
        }
        return new Farm(list);
    }

    public Farm emitter(Node<?, ?> node) {
        this.emitter = Objects.requireNonNull(node, "emitter");
        return this;
    }

    public Farm collector(Node<?, ?> node) {
        this.collector = Objects.requireNonNull(node, "collector");
        return this;
    }

    /** Round-robin scheduling (the default). */
    public Farm roundRobin() {
        this.onDemandSlots = 0;
        return this;
    }

    /** On-demand scheduling with one slot per worker. */
    public Farm onDemand() {
        return onDemand(1);
    }

    /** On-demand scheduling: a worker holds at most {@code slots} queued tasks. */
    public Farm onDemand(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("onDemand(" + slots + "): a worker needs at least 1 slot");
        }
        this.onDemandSlots = slots;
        return this;
    }

    /** Outputs in input order, at most {@link #DEFAULT_MAX_IN_FLIGHT} tasks in flight. */
    public Farm ordered() {
        return ordered(DEFAULT_MAX_IN_FLIGHT);
    }

    /** Outputs in input order, at most {@code maxInFlight} tasks between emitter and collector. */
    public Farm ordered(int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("ordered(" + maxInFlight + "): at least 1 task must be in flight");
        }
        this.ordered = true;
        this.maxInFlight = maxInFlight;
        return this;
    }

    /** Feedback to the emitter: from the collector if there is one, else from every worker. */
    public Farm wrapAround() {
        this.wrapAround = true;
        return this;
    }

    /**
     * Feedback from every worker to the emitter, also when the farm has a collector (with
     * {@link #wrapAround()} as well, both the workers and the collector feed back). The workers must be
     * {@link MultiOutputNode}s: their returned items go forward, {@code sendFeedbackTo(item, 0)} goes back.
     * At the emitter, worker {@code i} is feedback channel {@code i}; the collector's comes last.
     */
    public Farm feedbackFromWorkers() {
        this.feedbackFromWorkers = true;
        return this;
    }

    /**
     * The farm survives the loss of a group that holds some of its workers (a distributed run, see
     * ff-dist's {@code docs/distributed.md}, "Losing a worker group"): an item sent to a remote worker is
     * kept until that worker's output for it arrives, and a lost worker's unfinished items go to the
     * other workers. In one process it changes nothing.
     *
     * <p>The rule the workers must obey: one output per input item (a worker that filters or emits several
     * items per task breaks the count that pairs outputs with inputs), and no side effect outside that
     * output (a lost worker's items are computed again elsewhere). The farm needs an emitter and takes its
     * workers' outputs back: a collector, or {@link #wrapAround()} without one; it is not
     * {@link #ordered()}, and its workers are nodes or pipelines of nodes.
     * Checked when the graph is built.
     */
    public Farm recoverable() {
        this.recoverable = true;
        return this;
    }

    /** Whether {@link #recoverable()} was asked for. */
    public boolean isRecoverable() {
        return recoverable;
    }

    /**
     * With {@link #onDemand()}: each item goes to a worker of the set {@code affinity} prefers for it,
     * {@code workerSets[set]} (workers' indices), when one of them has a free slot, and otherwise waits for
     * one while the items behind it go on; other workers take it only when nothing else waits for them, or
     * when every worker of its set is gone (see {@link WorkerAffinity}). The workers must be nodes or
     * pipelines of nodes, so that worker {@code i} is the emitter's output {@code i}; checked when the
     * graph is built.
     */
    public Farm affinity(int[][] workerSets, WorkerAffinity affinity) {
        Objects.requireNonNull(workerSets, "workerSets");
        int[][] sets = new int[workerSets.length][];
        for (int i = 0; i < sets.length; i++) {
            sets[i] = workerSets[i].clone();
        }
        this.affinitySets = sets;
        this.affinity = Objects.requireNonNull(affinity, "affinity");
        return this;
    }

    /** The {@link #affinity} given, or {@code null}. */
    public WorkerAffinity workerAffinity() {
        return affinity;
    }

    /** The sets of workers of the {@link #affinity} given (not a copy), or {@code null}. */
    public int[][] affinitySets() {
        return affinitySets;
    }

    public boolean hasFeedbackFromWorkers() {
        return feedbackFromWorkers || (wrapAround && collector == null);
    }

    public List<BuildingBlock> workers() {
        return Collections.unmodifiableList(workers);
    }

    /** The user's emitter, or {@code null} for the default one. */
    public Node<?, ?> emitter() {
        return emitter;
    }

    /** The user's collector, or {@code null} if none was set. */
    public Node<?, ?> collector() {
        return collector;
    }

    public boolean isOnDemand() {
        return onDemandSlots > 0;
    }

    public int onDemandSlots() {
        return onDemandSlots;
    }

    public boolean isOrdered() {
        return ordered;
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    public boolean isWrapAround() {
        return wrapAround;
    }

    /**
     * This farm with {@code node} as its emitter, every other setting kept ({@link Accelerator}'s input stage
     * becoming a library farm's emitter); copied here, field by field, so a setting added to the farm is not
     * left behind.
     */
    Farm withEmitter(Node<?, ?> node) {
        Farm copy = new Farm(workers);
        copy.emitter = Objects.requireNonNull(node, "emitter");
        copy.collector = collector;
        copy.onDemandSlots = onDemandSlots;
        copy.ordered = ordered;
        copy.maxInFlight = maxInFlight;
        copy.wrapAround = wrapAround;
        copy.feedbackFromWorkers = feedbackFromWorkers;
        copy.recoverable = recoverable;
        copy.affinity = affinity;
        copy.affinitySets = affinitySets;
        if (givenName() != null) {
            copy.named(givenName());
        }
        return copy;
    }

    @Override
    public String toString() {
        return "Farm(" + workers.size() + " workers)";
    }

    /** Names the block's cluster and the stem of its threads' names ({@link BuildingBlock#named}). */
    @Override
    public Farm named(String name) {
        super.named(name);
        return this;
    }
}
