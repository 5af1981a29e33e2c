package org.fastflowj.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;

/**
 * Runs one node, a fresh one from the factory for each way of feeding it, between test feeders and
 * collectors, and checks what comes out: the items (in order, in any order, or none at all when
 * {@code svc} returns GO_ON), then exactly one EOS on every output channel, after the items.
 *
 * <pre>{@code
 * NodeTestSupport.verify(Doubler::new).input(1, 2, 3).expectOutput(2, 4, 6).run();
 * }</pre>
 *
 * <p>Each {@link Feeding} is one real run of the engine: a feeder per input channel (a farm of them for
 * several channels; none for a source, which gets no {@link #input}), the node, and a collector per
 * output channel (the first set of an all-to-all for several, so that channel {@code k} of the node is
 * collector {@code k}). What the collectors recorded is read after the run ended, which orders it
 * before the read.
 */
public final class NodeTestSupport<I, O, N extends Node<I, O>> {
    /** How long one run may take before the harness cancels it and fails. */
    private static final long RUN_TIMEOUT_SECONDS = 20;

    /** How the items reach the node and leave it. */
    public enum Feeding {
        /** One item per feeder call through one-slot channels: the node mostly finds one item waiting. */
        ONE_BY_ONE,
        /** Every item of a channel sent in one feeder call, ahead of the node. */
        ALL_AT_ONCE,
        /**
         * All at once, through one-slot channels whose collector pauses after every other item, so that
         * the node's next offer meets a full output every other time (as often as timing allows).
         */
        FULL_EVERY_OTHER
    }

    private final Supplier<? extends N> factory;
    private final List<List<I>> inputs = new ArrayList<>();
    private final List<List<O>> expected = new ArrayList<>();
    private boolean anyOrder;
    private int outputChannels = 1;
    private Consumer<? super N> nodeCheck = node -> {};

    private NodeTestSupport(Supplier<? extends N> factory) {
        this.factory = factory;
    }

    /** The harness for nodes made by {@code factory} (called once per {@link Feeding}). */
    public static <I, O, N extends Node<I, O>> NodeTestSupport<I, O, N> verify(Supplier<? extends N> factory) {
        return new NodeTestSupport<>(factory);
    }

    /** The items of one more input channel (channel 0 first). */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only read, item by item
    public final NodeTestSupport<I, O, N> input(I... items) {
        return input(listOf(items));
    }

    /** The items of one more input channel (channel 0 first). */
    public NodeTestSupport<I, O, N> input(List<? extends I> items) {
        inputs.add(List.copyOf(items));
        return this;
    }

    /** The node has {@code count} forward output channels, each with its own collector. */
    public NodeTestSupport<I, O, N> outputChannels(int count) {
        outputChannels = count;
        return this;
    }

    /** Exactly these items, in this order, on output channel 0 (the only one by default). */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only read, item by item
    public final NodeTestSupport<I, O, N> expectOutput(O... items) {
        return expectOutputOn(0, listOf(items));
    }

    /** Exactly these items, in this order, on output channel {@code channel}. */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only read, item by item
    public final NodeTestSupport<I, O, N> expectOutputOn(int channel, O... items) {
        return expectOutputOn(channel, listOf(items));
    }

    /** Exactly these items, in this order, on output channel {@code channel}. */
    public NodeTestSupport<I, O, N> expectOutputOn(int channel, List<? extends O> items) {
        while (expected.size() <= channel) {
            expected.add(List.of());
        }
        expected.set(channel, List.copyOf(items));
        return this;
    }

    /** Exactly these items, in this order, on output channel 0 (the only one by default). */
    public NodeTestSupport<I, O, N> expectOutput(List<? extends O> items) {
        return expectOutputOn(0, items);
    }

    /** Exactly these items on output channel 0, in any order (several input channels interleave). */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only read, item by item
    public final NodeTestSupport<I, O, N> expectOutputInAnyOrder(O... items) {
        anyOrder = true;
        return expectOutputOn(0, listOf(items));
    }

    /** No item on any output channel: every call returned GO_ON. The EOS still has to come. */
    public NodeTestSupport<I, O, N> expectNoOutput() {
        expected.clear();
        return this;
    }

    /** A further check of the node itself after each run (its counters, its eosNotify calls, ...). */
    public NodeTestSupport<I, O, N> assertNode(Consumer<? super N> check) {
        nodeCheck = check;
        return this;
    }

    /** Runs every {@link Feeding} in turn and checks each run. */
    public void run() {
        for (Feeding feeding : Feeding.values()) {
            run(feeding);
        }
    }

    /** Runs one fresh node fed as {@code feeding} and checks the run. */
    public void run(Feeding feeding) {
        N node = factory.get();
        List<TestCollector<O>> collectors = new ArrayList<>();
        for (int c = 0; c < outputChannels; c++) {
            collectors.add(new TestCollector<>(feeding == Feeding.FULL_EVERY_OTHER));
        }
        BuildingBlock graph = inputs.isEmpty()
                ? new Pipeline(node, collectorStage(collectors))
                : new Pipeline(feeders(feeding), node, collectorStage(collectors));
        RunOptions options = feeding == Feeding.ALL_AT_ONCE
                ? RunOptions.defaults().unboundedQueues(true)
                : RunOptions.defaults().queueCapacity(1);
        graph.run(options);
        if (!graph.waitEnd(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            graph.cancel();
            throw new AssertionError(feeding + ": " + node + " did not end within " + RUN_TIMEOUT_SECONDS
                    + " s; collected so far " + collectors);
        }
        for (int c = 0; c < outputChannels; c++) {
            TestCollector<O> collector = collectors.get(c);
            List<O> want = c < expected.size() ? expected.get(c) : List.of();
            String what = feeding + ", output channel " + c;
            if (anyOrder) {
                assertThat(collector.items).as(what).containsExactlyInAnyOrderElementsOf(want);
            } else {
                assertThat(collector.items).as(what).containsExactlyElementsOf(want);
            }
            assertThat(collector.endsSeen).as(what + ": EOS once").isEqualTo(1);
            assertThat(collector.itemsAfterEnd)
                    .as(what + ": no item after the EOS")
                    .isZero();
        }
        nodeCheck.accept(node);
    }

    /** The items of a varargs array, read one by one: the array itself goes nowhere. */
    @SafeVarargs
    private static <T> List<T> listOf(T... items) {
        List<T> list = new ArrayList<>(items.length);
        for (T item : items) {
            list.add(item);
        }
        return list;
    }

    private BuildingBlock feeders(Feeding feeding) {
        List<TestFeeder<I>> feeders = new ArrayList<>();
        for (List<I> items : inputs) {
            feeders.add(new TestFeeder<>(items, feeding == Feeding.ONE_BY_ONE));
        }
        return feeders.size() == 1 ? feeders.get(0) : Farm.of(feeders);
    }

    private BuildingBlock collectorStage(List<TestCollector<O>> collectors) {
        if (collectors.size() == 1) {
            return collectors.get(0);
        }
        // Channel k of a multi-output node is L-Worker k of the all-to-all after it.
        return new AllToAll().firstSet(collectors).secondSet(Node.sink(nothing -> {}));
    }
}
