package org.fastflowj.core.runtime;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.bridge.BridgeRunner;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.NodeThreads;
import org.fastflowj.core.runtime.channel.OnDemandDispatch;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.Affinity;
import org.fastflowj.core.runtime.control.CheckpointCoordinator;
import org.fastflowj.core.runtime.control.FatalErrors;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.runtime.node.NodeRunner;

/**
 * Runs a {@link Graph}: one SPSC channel per edge, one platform thread per vertex ({@link NodeThreads}),
 * named after it. It knows nothing of farms or pipelines.
 */
public final class Executor {
    /** Feedback items per wake-up of a parked loop head under batched wake-ups; see {@link #wakeBatch}. */
    static final int FEEDBACK_WAKE_BATCH = 16;

    /**
     * The processors this JVM may use, read once, as {@code ForkJoinPool.commonPool} does: the JVM
     * answers {@link Runtime#availableProcessors} from container files it re-reads once they are a little
     * old, a cost a program running graph after graph would otherwise pay on many of its runs.
     */
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private Executor() {}

    /** Whether the run's busy threads (its node threads and the hooks' others) outnumber the cores. */
    static boolean oversubscribed(int nodeThreads, RunHooks hooks, int cores) {
        return nodeThreads + hooks.otherBusyThreads() > cores;
    }

    /** Creates the channels and threads of {@code graph} and starts them; returns at once. */
    public static Execution start(Graph graph, RunOptions options) {
        return start(graph, options, RunHooks.NONE);
    }

    /** As {@link #start(Graph, RunOptions)}, with a {@link GraphRunner}'s additions. */
    public static Execution start(Graph graph, RunOptions options, RunHooks hooks) {
        return start(graph, options, hooks, null);
    }

    /**
     * Starts a group's part {@code local} of a program in groups with checkpoints into {@code groups}
     * (the interval and mode from {@code options}), resuming from checkpoint {@code resumeFrom} (-1: a first
     * start; 0: a restart with no complete checkpoint)
     * and numbering new ones after {@code numberedAfter}; see {@code CheckpointedRun.startGroup}.
     */
    public static Execution startGroupWithCheckpoints(
            Graph local,
            RunOptions options,
            RunHooks hooks,
            GroupCheckpoints groups,
            long resumeFrom,
            long numberedAfter) {
        return CheckpointedRun.startGroup(local, options, hooks, groups, resumeFrom, numberedAfter);
    }

    /** As {@link #start(Graph, RunOptions, RunHooks)}, taking checkpoints through {@code checkpoints} (may be null). */
    static Execution start(Graph graph, RunOptions options, RunHooks hooks, CheckpointCoordinator checkpoints) {
        FatalErrors.prepare(); // loaded before any node can run out of memory
        RunControl control = new RunControl(hooks, checkpoints);
        List<Vertex> vertices = graph.vertices();
        boolean oversubscribed = oversubscribed(vertices.size(), hooks, CORES);
        IdlePolicy idle = IdlePolicy.of(options.waitStrategy(), oversubscribed);
        ChannelEnd[] runners = wire(graph, options, control, idle, oversubscribed);
        control.runners(runners);
        if (checkpoints != null) {
            Node<?, ?>[] nodes = new Node<?, ?>[runners.length];
            String[] names = new String[runners.length];
            for (int i = 0; i < runners.length; i++) {
                // a bridge to another group (a group's run) takes no part but carries the barriers
                nodes[i] = runners[i] instanceof NodeRunner node ? node.node() : null;
                names[i] = runners[i].name;
            }
            checkpoints.attach(control, nodes, names);
        }
        NodeThreads.Run[] threads = new NodeThreads.Run[runners.length];
        for (int i = 0; i < runners.length; i++) {
            // Known to the run's cancellation before any runner runs: one that fails at once interrupts all.
            threads[i] = NodeThreads.prepare(runners[i], runners[i].name);
            runners[i].threadRun = threads[i];
        }
        Execution execution = new Execution(runners, threads, control, itemChannels(runners));
        int started = 0;
        try {
            for (; started < runners.length; started++) {
                threads[started].start();
            }
        } catch (Throwable t) {
            control.fail("executor", "thread start", t);
            for (int i = started; i < runners.length; i++) {
                threads[i].neverStarted();
                control.runnerEnded(); // never started, so it will not count itself out
            }
        }
        if (checkpoints != null) {
            checkpoints.start();
        }
        return execution;
    }

    /**
     * Every channel that carries items, for the queue fill in the run's statistics: each runner's forward
     * and feedback inputs (an order channel holds the emitter's records, not items, and is no input).
     */
    private static SpscChannel[] itemChannels(ChannelEnd[] runners) {
        List<SpscChannel> channels = new ArrayList<>();
        for (ChannelEnd r : runners) {
            channels.addAll(List.of(r.inputs()));
        }
        return channels.toArray(SpscChannel[]::new);
    }

    /**
     * The runners of {@code graph}, each wired to its channels: a node's with the parts its place in the
     * graph asks for (see {@link NodeRunner#wire}), a bridge's {@link BridgeRunner}; no thread is started.
     */
    public static ChannelEnd[] wire(
            Graph graph, RunOptions options, RunControl control, IdlePolicy idle, boolean oversubscribed) {
        List<Vertex> vertices = graph.vertices();
        List<Integer> cpus = options.cpus();
        ChannelEnd[] runners = new ChannelEnd[vertices.size()];
        int[] claimed = options.autoThreadMapping() ? Affinity.claim(vertices.size()) : null;
        for (Vertex v : vertices) {
            int i = v.index();
            int cpu = claimed != null
                    ? (claimed.length > 0 ? claimed[i] : -1)
                    : (cpus.isEmpty() ? -1 : cpus.get(i % cpus.size()));
            runners[i] = v.task() instanceof BridgeTask task
                    ? new BridgeRunner(v, task, control, idle, cpu, claimed != null)
                    : NodeRunner.create(
                            v,
                            control,
                            idle,
                            cpu,
                            claimed != null,
                            NodeAccess.get().lifecycle());
        }
        Map<Edge, SpscChannel> channels = new IdentityHashMap<>();
        for (Edge e : graph.edges()) {
            SpscChannel ch = channelFor(e, options);
            ch.wakeBatch = wakeBatch(e.kind(), ch.limit, idle, oversubscribed);
            ch.producer = runners[e.from().index()];
            ch.consumer = runners[e.to().index()];
            channels.put(e, ch);
        }
        OnDemandDispatch[] dispatches = new OnDemandDispatch[vertices.size()];
        for (Vertex v : vertices) {
            if (dispatchesOnDemand(v)) {
                dispatches[v.index()] = dispatch(runners[v.index()], array(v.forwardOut(), channels), options);
                if (v.workerAffinity() != null) {
                    dispatches[v.index()].prefer(v.affinitySets(), v.workerAffinity());
                }
            }
        }
        for (Vertex v : vertices) {
            if (runners[v.index()] instanceof BridgeRunner bridge) {
                bridge.wire(
                        array(v.forwardIn(), channels),
                        array(v.feedbackIn(), channels),
                        array(v.forwardOut(), channels),
                        array(v.feedbackOut(), channels));
                continue;
            }
            ((NodeRunner) runners[v.index()])
                    .wire(
                            array(v.forwardIn(), channels),
                            array(v.feedbackIn(), channels),
                            array(v.forwardOut(), channels),
                            array(v.feedbackOut(), channels),
                            v.orderRole(),
                            v.orderEdge() == null ? null : channels.get(v.orderEdge()),
                            dispatches[v.index()]);
        }
        return runners;
    }

    /**
     * A node whose forward outputs are all on-demand slots, routed by the run-time (not chosen by a
     * multi-output node, not recorded for an ordered farm), hands its items out through an
     * {@link OnDemandDispatch}.
     */
    private static boolean dispatchesOnDemand(Vertex v) {
        if (v.node() == null // a bridge offers to the channel it chooses
                || v.forwardOut().isEmpty()
                || v.node().isMultiOutput()
                || v.orderRole() == Vertex.OrderRole.RECORD) {
            return false;
        }
        for (Edge e : v.forwardOut()) {
            if (e.slots() <= 0) {
                return false;
            }
        }
        return true;
    }

    private static OnDemandDispatch dispatch(ChannelEnd producer, SpscChannel[] slots, RunOptions options) {
        String description = producer.name + " -staging-> on-demand slots";
        // It stands for one channel per consumer: the producer may get as far ahead as with round-robin.
        int capacity = (int) Math.min(1 << 30, (long) options.queueCapacity() * slots.length);
        SpscChannel staging = options.unboundedQueues()
                ? SpscChannel.unbounded(false, description)
                : SpscChannel.bounded(capacity, false, description);
        staging.producer = producer; // its consumer is whoever holds the dispatch role: no parked thread
        OnDemandDispatch dispatch = new OnDemandDispatch(staging, slots);
        for (SpscChannel slot : slots) {
            slot.dispatch = dispatch;
        }
        return dispatch;
    }

    /**
     * Items a producer queues before it wakes the parked consumer. When threads outnumber the cores and
     * wake-ups are batched (BACKOFF), feedback channels use a small batch: a loop head fed by feedback (a
     * macro data-flow scheduler taking completions) is then woken once per few items instead of once per
     * item, each wake-up costing a thread switch on a busy core; a producer about to wait wakes it anyway
     * (ChannelEnd.wakeNeighboursBeforePark), so no item is left behind.
     */
    static int wakeBatch(Edge.Kind kind, int channelLimit, IdlePolicy idle, boolean oversubscribed) {
        if (kind == Edge.Kind.FORWARD) {
            return Math.max(1, Math.min(idle.wakeBatch(), channelLimit / 4));
        }
        return kind == Edge.Kind.FEEDBACK && oversubscribed ? Math.min(idle.wakeBatch(), FEEDBACK_WAKE_BATCH) : 1;
    }

    private static SpscChannel channelFor(Edge e, RunOptions options) {
        String description = e.toString();
        return switch (e.kind()) {
                // Feedback is unbounded so that a loop can never deadlock on a full queue.
            case FEEDBACK -> SpscChannel.unbounded(true, description);
            case ORDER -> SpscChannel.bounded(e.slots(), false, description);
            case FORWARD -> e.slots() > 0
                    ? SpscChannel.bounded(e.slots(), false, description)
                    : fromBridgeToOrderedCollector(e)
                            ? SpscChannel.unbounded(false, description)
                            : plainForward(e, options, description);
        };
    }

    /**
     * A bridge feeds the collector of an ordered farm with the outputs of every remote worker from one
     * thread. The collector takes them in task order, so a bounded channel of a worker that got ahead
     * would stop the bridge, and with it the outputs of the worker the collector waits for: a deadlock
     * that separate worker threads in one process cannot have. Unbounded, these channels still hold no
     * more than the farm's {@code maxInFlight} tasks' outputs: the emitter waits for room on the order
     * channel before it hands out another task.
     */
    private static boolean fromBridgeToOrderedCollector(Edge e) {
        return e.from().task() != null && e.to().orderRole() == Vertex.OrderRole.COLLECT;
    }

    /**
     * A forward channel of the run's capacity; gathering when its consumer is a bridge that asks for it and
     * its producer records no order (an ordered farm's emitter, whose records count items per channel).
     * Chunks are kept to a quarter of a bounded channel, so that it holds several.
     */
    private static SpscChannel plainForward(Edge e, RunOptions options, String description) {
        int limit = options.unboundedQueues() ? Integer.MAX_VALUE : options.queueCapacity();
        int asked = e.to().task() instanceof BridgeTask task ? task.inputChunkCapacity() : 0;
        int chunk = e.from().orderRole() != Vertex.OrderRole.RECORD ? Math.min(asked, limit / 4) : 0;
        if (chunk > 1) {
            return SpscChannel.gathering(limit, chunk, description);
        }
        return options.unboundedQueues()
                ? SpscChannel.unbounded(false, description)
                : SpscChannel.bounded(limit, false, description);
    }

    private static SpscChannel[] array(List<Edge> edges, Map<Edge, SpscChannel> channels) {
        SpscChannel[] result = new SpscChannel[edges.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = channels.get(edges.get(i));
        }
        return result;
    }
}
