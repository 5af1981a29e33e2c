package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.fastflowj.core.spi.Engine;
import org.fastflowj.core.spi.NodeContext;
import org.fastflowj.core.spi.NodeLifecycle;
import org.fastflowj.core.spi.PhaseFailure;
import org.fastflowj.core.spi.Sentinel;

/**
 * The sequential building block: one thread runs its {@link #svc} on every input item, in order.
 *
 * <p>Life cycle, as in FastFlow: {@link #svcInit()} once (a failure aborts the run), then {@code svc}
 * for each input item, then {@link #eosNotify(int)} when the input stream ends, then {@link #svcEnd()}
 * once. {@code svc} returns an output item, {@link #goOn()} (no output, keep going) or {@link #eos()}
 * (end now: EOS goes downstream and the node stops even if inputs remain). {@link #sendOut} emits more
 * outputs from one call, also from {@code eosNotify} (delivered before the EOS).
 *
 * <p>A node with no input channel (the first stage) is a source: {@code svc(null)} is called again and
 * again until it returns EOS. A node that heads a feedback loop and has no other input is called once
 * with {@code null}, then reads its feedback channels.
 *
 * <p>A plain {@code Node} placed after several producers still gets one {@code eosNotify(-1)}, after all
 * of them ended; use {@link MultiInputNode} to see each channel, {@link MultiOutputNode} to choose them.
 *
 * <p>An exception thrown by {@code svc} ends the run, unless the node was given another policy with
 * {@link #onError}: skip the item, or hand it to a dead-letter consumer, and go on.
 *
 * <p>Threading: all methods run on the node's own thread; a node keeps its state in plain fields.
 *
 * @param <I> input item type ({@code Void} for a source)
 * @param <O> output item type ({@code Void} for a sink)
 */
public abstract class Node<I, O> extends BuildingBlock {
    /** The engine, found when this class is initialised, before any node can run (see Engines). */
    private static final Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> ENGINE = Engines.find(new Lifecycle());

    /*
     * A node's fields lie 128 bytes after its start, behind the padding at the end of BuildingBlock (see
     * there). Padding inside the object cannot follow a subclass's fields, which the JVM lays out last,
     * right before the next object's header; a thread reads its node's header on every item (the class
     * word, to call svc). So the node also allocates a 144-byte array as it is constructed (trailingGap),
     * which lands right behind it in the allocating thread's buffer. Without it, a user counter in the
     * last node of one thread can share a cache line with the first node of the other, and the two
     * threads then slow each other down on every item, in some runs and not others. NodeLayoutTest
     * checks both gaps.
     */
    private NodeContext context;
    private int id;

    /** Set by goOn()/eos(), which return null so that they type-check as any O; read right after svc. */
    private Object signal;

    private static final NodeCounter[] NO_COUNTERS = {};
    /** Taken when this class is initialised, not in a constructor: see the trailing gap. */
    private static final NodeErrors FAIL = NodeErrors.fail();

    /** Read only when svc threw. */
    private NodeErrors errors = FAIL;

    /** Declared before the run; read by statistics from other threads, so replaced whole, never changed. */
    private volatile NodeCounter[] counters = NO_COUNTERS;

    private NodeCounter skipped;
    private NodeCounter deadLettered;

    /** Allocated right behind this node, to keep the next object off its last fields: see above. */
    @SuppressWarnings("unused")
    private final long[] trailingGap = new long[16];

    protected Node() {}

    /**
     * A node whose {@code svc} applies {@code function}; the function must not return {@code null}.
     */
    public static <I, O> Node<I, O> of(Function<? super I, ? extends O> function) {
        Objects.requireNonNull(function, "function");
        return new FunctionNode<>(function);
    }

    /**
     * As {@link #of(Function)}, with the item types given, since a lambda's are erased: the graph
     * compiler then checks that the neighbours' types can match (a mismatch is a {@link
     * GraphBuildException} naming both stages and both types, not a {@code ClassCastException} at the
     * first item).
     */
    public static <I, O> Node<I, O> of(
            Class<I> inputType, Class<O> outputType, Function<? super I, ? extends O> function) {
        Objects.requireNonNull(inputType, "inputType");
        Objects.requireNonNull(outputType, "outputType");
        Objects.requireNonNull(function, "function");
        return new TypedFunctionNode<>(inputType, outputType, function);
    }

    /**
     * A source that sends every element of {@code items}, in order, then EOS. The iterator is taken on
     * the node's thread when the run starts, so a lazy {@code Iterable} is consumed there.
     */
    public static <O> Node<Void, O> source(Iterable<? extends O> items) {
        Objects.requireNonNull(items, "items");
        return new IterableSource<>(items);
    }

    /** {@link #of(Function)} {@linkplain #named named} {@code name}: the types are still inferred. */
    public static <I, O> Node<I, O> of(String name, Function<? super I, ? extends O> function) {
        Node<I, O> node = of(function);
        node.named(name);
        return node;
    }

    /** {@link #source(Iterable)} {@linkplain #named named} {@code name}. */
    public static <O> Node<Void, O> source(String name, Iterable<? extends O> items) {
        Node<Void, O> node = source(items);
        node.named(name);
        return node;
    }

    /** {@link #sink(Consumer)} {@linkplain #named named} {@code name}. */
    public static <I> Node<I, Void> sink(String name, Consumer<? super I> action) {
        Node<I, Void> node = sink(action);
        node.named(name);
        return node;
    }

    /** A sink that hands every input item to {@code action} on the node's thread and emits nothing. */
    public static <I> Node<I, Void> sink(Consumer<? super I> action) {
        Objects.requireNonNull(action, "action");
        return new ConsumerSink<>(action);
    }

    /**
     * Processes one input item ({@code null} for a source).
     *
     * @return an output item, {@link #goOn()} or {@link #eos()}; never {@code null}
     */
    protected abstract O svc(I input) throws Exception;

    /** Called once on the node's thread before the first {@code svc}; throwing aborts the whole run. */
    protected void svcInit() throws Exception {}

    /** Called once on the node's thread after the node ended normally, after its EOS went out. */
    protected void svcEnd() throws Exception {}

    /**
     * The input stream ended. A plain node is told once, after all its input channels ended, with
     * {@code channel == -1}; a {@link MultiInputNode} is told once per forward input channel. Items sent
     * with {@link #sendOut} from here go out before the EOS.
     */
    protected void eosNotify(int channel) throws Exception {}

    /**
     * Sends an item downstream now, by the node's default policy; may be called many times per
     * {@code svc}. Sending {@link #eos()} ends the node after the current call; a node heading a
     * feedback loop instead sends EOS forward at once and keeps taking fed-back items until every
     * feedback producer ended, so results still in flight reach it.
     *
     * @throws IllegalStateException if called outside {@code svcInit}, {@code svc} or {@code eosNotify}
     *     of a running node (in {@code svcEnd} the node's EOS has already gone out)
     */
    protected final void sendOut(O item) {
        NodeContext ctx = context();
        if (item != null) {
            ctx.emit(item);
            return;
        }
        Object pending = signal;
        signal = null;
        if (pending == Sentinel.EOS) {
            ctx.requestEnd();
        } else if (pending != Sentinel.GO_ON) {
            throw new NullPointerException("sendOut(null): null is not an item (sendOut(eos()) ends the node)");
        }
    }

    /**
     * "No output this time": return it from {@code svc} to keep going without emitting.
     *
     * <p>It returns {@code null} (and notes the signal on the node) so that it fits any output type; return
     * it directly, as {@code return goOn();}. In a conditional with a primitive on the other side, box
     * that side ({@code return ok ? Integer.valueOf(i) : goOn();}), or Java unboxes the null.
     */
    protected final O goOn() {
        signal = Sentinel.GO_ON;
        return null;
    }

    /**
     * End-of-stream: return it from {@code svc} (or pass it to {@code sendOut}) to end the node. Like
     * {@link #goOn()} it returns {@code null} and notes the signal on the node.
     */
    protected final O eos() {
        signal = Sentinel.EOS;
        return null;
    }

    /**
     * Names the node: its thread, its failure ({@link NodeFailedException#nodeName()}), its
     * {@link NodeStats} and its box in {@link #toDot()} use the name instead of the node's place in the
     * tree ({@code ff-pipe1-stage2}). Two nodes given the same name are told apart by a suffix: the
     * second is {@code parser#2}.
     *
     * @return this node
     * @throws IllegalArgumentException if {@code name} is null or blank
     */
    @Override
    public Node<I, O> named(String name) {
        super.named(name);
        return this;
    }

    /**
     * What the node does when its {@code svc} throws on an item: {@link NodeErrors#fail()} (the default)
     * ends the run, {@link NodeErrors#skip()} drops the item, {@link NodeErrors#deadLetter} hands it on;
     * both count it, in the node's {@code "skipped"} or {@code "dead-lettered"} {@linkplain #counters()
     * counter}. Set it before the run. The policy is part of the node, wherever the node runs: in a
     * {@link Combiner}, as a farm worker or an all-to-all member, in a distributed group.
     *
     * @return this node
     */
    public Node<I, O> onError(NodeErrors policy) {
        Objects.requireNonNull(policy, "policy");
        if (policy.skip && skipped == null) {
            skipped = counter("skipped");
        } else if (policy.deadLetters != null && deadLettered == null) {
            deadLettered = counter("dead-lettered");
        }
        this.errors = policy;
        return this;
    }

    /**
     * Declares a counter this node keeps, shown with its statistics ({@link NodeStats#counters()}), on
     * the live page and at {@code /metrics}; call it before the run (in the constructor), and count on
     * the node's thread with {@link NodeCounter#increment()}. Each run counts from 0.
     *
     * @throws IllegalArgumentException if the name is blank or the node already has a counter of that name
     */
    protected final NodeCounter counter(String name) {
        return declare(new NodeCounter(name));
    }

    /**
     * Declares {@code counter}, made beside the node (shared with code the node runs), as {@link
     * #counter(String)} does; only the node's thread may count on it.
     *
     * @return {@code counter}
     * @throws IllegalArgumentException if the node already has a counter of that name
     */
    protected final NodeCounter declare(NodeCounter counter) {
        Objects.requireNonNull(counter, "counter");
        NodeCounter[] declared = counters;
        for (NodeCounter c : declared) {
            if (c.name().equals(counter.name())) {
                throw new IllegalArgumentException(this + " already has a counter named '" + counter.name() + "'");
            }
        }
        NodeCounter[] more = Arrays.copyOf(declared, declared.length + 1);
        more[declared.length] = counter;
        counters = more;
        return counter;
    }

    /** The counters of this node and, for a {@link Combiner}, of the nodes it fuses, in order. */
    public final List<NodeCounter> counters() {
        List<NodeCounter> all = new ArrayList<>();
        collectCounters(all);
        return all;
    }

    void collectCounters(List<NodeCounter> into) {
        Collections.addAll(into, counters);
    }

    /** The node's index in its parent: farm worker, all-to-all set member or pipeline stage. */
    public final int id() {
        return id;
    }

    /** Whether the node sees its input channels one by one (a {@link MultiInputNode} or a combiner starting with one). */
    public boolean isMultiInput() {
        return false;
    }

    /** Whether the node chooses its output channels (a {@link MultiOutputNode} or a combiner ending with one). */
    public boolean isMultiOutput() {
        return false;
    }

    @Override
    public String toString() {
        return givenName() != null
                ? "node " + givenName()
                : "node " + getClass().getName();
    }

    /**
     * How a node built from {@code code} reads in messages: {@code kind(lambda in Parser)} for a lambda or
     * method reference, whose class name ({@code Parser$$Lambda$4/0x...}) says nothing to its author.
     */
    final String describe(String kind, Object code) {
        if (givenName() != null) {
            return "node " + givenName();
        }
        String type = code.getClass().getName();
        int lambda = type.indexOf("$$Lambda");
        if (lambda < 0) {
            return "node Node." + kind + "(" + code + ")";
        }
        String declaring = type.substring(0, lambda);
        return "node Node." + kind + "(lambda in " + declaring.substring(declaring.lastIndexOf('.') + 1) + ")";
    }

    final NodeContext context() {
        NodeContext ctx = context;
        if (ctx == null) {
            throw new IllegalStateException(this + " is not running: channels exist only during a run");
        }
        return ctx;
    }

    // ---- engine hooks, overridden by MultiInputNode and Combiner ----

    void bind(NodeContext ctx, int nodeId) {
        this.context = ctx;
        this.id = nodeId;
    }

    @SuppressWarnings("unchecked")
    Object invokeSvc(Object input) throws Exception {
        return svc((I) input);
    }

    /**
     * Runs {@code svc} and turns its result into an item, {@link Sentinel#GO_ON} or {@link Sentinel#EOS};
     * a bare {@code null} (no goOn()/eos() behind it) is a user error, reported with the node's name.
     */
    final Object call(Object input) throws Exception {
        Object result;
        try {
            result = invokeSvc(input);
        } catch (Exception e) {
            result = failed(input, e);
        }
        return settle(result);
    }

    /**
     * {@code svc} threw {@code error} on {@code input}: rethrows it to fail the run, or, by the node's
     * policy, skips or dead-letters the item and returns GO_ON. What is not this item's failure always
     * fails: a cancelled run, a failure of another phase, an exception a later node of the same combiner
     * threw on an item this one sent it.
     */
    final Object failed(Object input, Exception error) throws Exception {
        NodeErrors policy = errors;
        NodeContext ctx = context;
        if (policy.fails()
                || error instanceof PhaseFailure
                || ctx == null
                || ctx.cancelled()
                || Combiner.passedOn(ctx, error)) {
            throw error;
        }
        if (policy.deadLetters != null) {
            deadLettered.increment();
            String name =
                    givenName() != null ? givenName() : Thread.currentThread().getName();
            policy.deadLetters.accept(new FailedItem(input, name, error));
        } else {
            skipped.increment();
        }
        return Sentinel.GO_ON;
    }

    /**
     * svc's result as an item, GO_ON or EOS, reading the signal goOn()/eos() noted. A combiner calls its
     * parts' svc itself and then this (see Combiner for why).
     */
    final Object settle(Object result) {
        if (result != null) {
            if (signal != null) {
                signal = null; // goOn()/eos() called but an item returned: the item wins
            }
            return result;
        }
        Object pending = signal;
        signal = null;
        if (pending == null) {
            throw new NullPointerException(this + ": svc returned null; return goOn() for no output or eos() to end");
        }
        return pending;
    }

    void invokeSvcInit() throws Exception {
        for (NodeCounter c : counters) {
            c.reset();
        }
        svcInit();
    }

    void invokeSvcEnd() throws Exception {
        svcEnd();
    }

    void inputEnded(int channel, boolean last) throws Exception {
        if (last) {
            eosNotify(-1);
        }
    }

    /** The engine that runs, draws and accelerates blocks. */
    static Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> engine() {
        return ENGINE;
    }

    /** The engine's door into the life-cycle methods: one instance, handed to the engine only. */
    private static final class Lifecycle implements NodeLifecycle<Node<?, ?>> {
        @Override
        public void bind(Node<?, ?> node, NodeContext ctx, int nodeId) {
            node.bind(ctx, nodeId);
        }

        @Override
        public void svcInit(Node<?, ?> node) throws Exception {
            node.invokeSvcInit();
        }

        @Override
        public Object svc(Node<?, ?> node, Object input) throws Exception {
            return node.call(input);
        }

        @Override
        public void inputEnded(Node<?, ?> node, int channel, boolean last) throws Exception {
            node.inputEnded(channel, last);
        }

        @Override
        public void svcEnd(Node<?, ?> node) throws Exception {
            node.invokeSvcEnd();
        }
    }

    private static final class IterableSource<O> extends Node<Void, O> {
        private final Iterable<? extends O> items;
        private Iterator<? extends O> iterator;

        IterableSource(Iterable<? extends O> items) {
            this.items = items;
        }

        @Override
        protected void svcInit() {
            iterator = items.iterator();
        }

        @Override
        protected O svc(Void none) {
            return iterator.hasNext() ? Objects.requireNonNull(iterator.next(), "Node.source: null element") : eos();
        }

        @Override
        public String toString() {
            return givenName() != null
                    ? "node " + givenName()
                    : "node Node.source(" + items.getClass().getSimpleName() + ")";
        }
    }

    private static final class ConsumerSink<I> extends Node<I, Void> {
        private final Consumer<? super I> action;

        ConsumerSink(Consumer<? super I> action) {
            this.action = action;
        }

        @Override
        protected Void svc(I input) {
            action.accept(input);
            return goOn();
        }

        @Override
        public String toString() {
            return describe("sink", action);
        }
    }

    private static final class TypedFunctionNode<I, O> extends Node<I, O> implements ItemTypes {
        private final Class<I> inputType;
        private final Class<O> outputType;
        private final Function<? super I, ? extends O> function;

        TypedFunctionNode(Class<I> inputType, Class<O> outputType, Function<? super I, ? extends O> function) {
            this.inputType = inputType;
            this.outputType = outputType;
            this.function = function;
        }

        @Override
        protected O svc(I input) {
            return function.apply(input);
        }

        @Override
        public Class<?> inputType() {
            return inputType;
        }

        @Override
        public Class<?> outputType() {
            return outputType;
        }

        @Override
        public String toString() {
            return "node Node.of(" + inputType.getSimpleName() + " -> " + outputType.getSimpleName() + ", " + function
                    + ")";
        }
    }

    private static final class FunctionNode<I, O> extends Node<I, O> {
        private final Function<? super I, ? extends O> function;

        FunctionNode(Function<? super I, ? extends O> function) {
            this.function = function;
        }

        @Override
        protected O svc(I input) {
            return function.apply(input);
        }

        @Override
        public String toString() {
            return describe("of", function);
        }
    }
}
