package org.fastflowj.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;

/**
 * How to run a graph: wait strategy, channel capacity, thread-to-core mapping. Immutable; every setter
 * returns a copy, so {@code RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING)} reads as it runs.
 */
public final class RunOptions {
    /** Default capacity of a forward channel, as FastFlow's DEFAULT_BUFFER_CAPACITY. */
    public static final int DEFAULT_QUEUE_CAPACITY = 2048;

    private static final RunOptions DEFAULTS = new RunOptions(new Fields());

    private final WaitStrategy waitStrategy;
    private final int queueCapacity;
    private final boolean unboundedQueues;
    private final List<Integer> cpus;
    /** Whether {@link #threadMapping} was called, with anything ({@code ""} included). */
    private final boolean mappingGiven;
    /** {@code threadMapping("auto")}: FastFlow's default mapping, one CPU per thread, chosen at run time. */
    private final boolean autoMapping;

    private final OptLevel optLevel;
    /** 0: the available processors, read when asked (a container may change it between runs). */
    private final int maxThreads;

    private final boolean jmx;
    /** -1: no metrics server; 0: any free port. */
    private final int uiPort;

    /** null: no checkpoints. */
    private final Duration checkpointInterval;

    private final CheckpointStore checkpointStore;
    private final CheckpointMode checkpointMode;
    private final RestartStrategy restartStrategy;
    private final boolean resumeFromCheckpoint;
    private final int fullCheckpointEvery;

    /** The fields of a copy being made: each setter changes one or two of them, the rest stay. */
    private static final class Fields {
        WaitStrategy waitStrategy = WaitStrategy.BACKOFF;
        int queueCapacity = DEFAULT_QUEUE_CAPACITY;
        boolean unboundedQueues;
        List<Integer> cpus = List.of();
        boolean mappingGiven;
        boolean autoMapping;
        OptLevel optLevel = OptLevel.NONE;
        int maxThreads;
        boolean jmx;
        int uiPort = -1;
        Duration checkpointInterval;
        CheckpointStore checkpointStore;
        CheckpointMode checkpointMode = CheckpointMode.EXACTLY_ONCE;
        RestartStrategy restartStrategy = RestartStrategy.none();
        boolean resumeFromCheckpoint;
        int fullCheckpointEvery = 1;

        Fields() {}

        Fields(RunOptions o) {
            waitStrategy = o.waitStrategy;
            queueCapacity = o.queueCapacity;
            unboundedQueues = o.unboundedQueues;
            cpus = o.cpus;
            mappingGiven = o.mappingGiven;
            autoMapping = o.autoMapping;
            optLevel = o.optLevel;
            maxThreads = o.maxThreads;
            jmx = o.jmx;
            uiPort = o.uiPort;
            checkpointInterval = o.checkpointInterval;
            checkpointStore = o.checkpointStore;
            checkpointMode = o.checkpointMode;
            restartStrategy = o.restartStrategy;
            resumeFromCheckpoint = o.resumeFromCheckpoint;
            fullCheckpointEvery = o.fullCheckpointEvery;
        }
    }

    private RunOptions(Fields f) {
        this.waitStrategy = f.waitStrategy;
        this.queueCapacity = f.queueCapacity;
        this.unboundedQueues = f.unboundedQueues;
        this.cpus = f.cpus;
        this.mappingGiven = f.mappingGiven;
        this.autoMapping = f.autoMapping;
        this.optLevel = f.optLevel;
        this.maxThreads = f.maxThreads;
        this.jmx = f.jmx;
        this.uiPort = f.uiPort;
        this.checkpointInterval = f.checkpointInterval;
        this.checkpointStore = f.checkpointStore;
        this.checkpointMode = f.checkpointMode;
        this.restartStrategy = f.restartStrategy;
        this.resumeFromCheckpoint = f.resumeFromCheckpoint;
        this.fullCheckpointEvery = f.fullCheckpointEvery;
    }

    /** A copy with {@code change} applied. */
    private RunOptions with(Consumer<Fields> change) {
        Fields f = new Fields(this);
        change.accept(f);
        return new RunOptions(f);
    }

    public static RunOptions defaults() {
        return DEFAULTS;
    }

    public RunOptions waitStrategy(WaitStrategy strategy) {
        Objects.requireNonNull(strategy, "strategy");
        return with(f -> f.waitStrategy = strategy);
    }

    /** Capacity of every bounded forward channel (feedback channels are always unbounded). */
    public RunOptions queueCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("queueCapacity(" + capacity + "): a channel holds at least 1 item");
        }
        return with(f -> f.queueCapacity = capacity);
    }

    /** Unbounded forward channels: a producer never waits (memory grows instead). On-demand channels stay bounded. */
    public RunOptions unboundedQueues(boolean unbounded) {
        return with(f -> f.unboundedQueues = unbounded);
    }

    /**
     * Pins node threads, in graph order, to the CPUs of a comma-separated list such as {@code "0,2,4"}
     * (cycling when there are more threads than CPUs). {@code "auto"} is FastFlow's default mapping: each
     * thread of the run on a CPU of its own among those this process may use, the least used by this
     * JVM's other auto-pinned threads first. Where pinning is impossible the run still works and says so once. {@code
     * ""} turns pinning off, also the optimizer's (see {@link OptLevel#LEVEL1}).
     *
     * @throws IllegalArgumentException naming the entry that is not a CPU number
     */
    public RunOptions threadMapping(String cpuList) {
        Objects.requireNonNull(cpuList, "cpuList");
        if (cpuList.trim().equals("auto")) {
            return with(f -> {
                f.cpus = List.of();
                f.mappingGiven = true;
                f.autoMapping = true;
            });
        }
        List<Integer> parsed = new ArrayList<>();
        if (!cpuList.isBlank()) {
            for (String part : cpuList.split(",", -1)) {
                String cpu = part.trim();
                try {
                    int value = Integer.parseInt(cpu);
                    if (value < 0) {
                        throw new NumberFormatException();
                    }
                    parsed.add(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            "threadMapping(\"" + cpuList + "\"): '" + cpu
                                    + "' is not a CPU number (expected a list like \"0,2,4\", or \"auto\")",
                            e);
                }
            }
        }
        List<Integer> listed = Collections.unmodifiableList(parsed);
        return with(f -> {
            f.cpus = listed;
            f.mappingGiven = true;
            f.autoMapping = false;
        });
    }

    /**
     * Lets the static optimizer rewrite the program before it runs (default {@link OptLevel#NONE}). Each
     * rewrite is logged in one line; {@link BuildingBlock#toDot(RunOptions)} draws the result. A block that
     * holds a distributed group is run as written.
     */
    public RunOptions optimize(OptLevel level) {
        Objects.requireNonNull(level, "level");
        return with(f -> f.optLevel = level);
    }

    /**
     * The thread budget the optimizer fuses stages towards (default: the available processors). Only read
     * when {@link #optimize(OptLevel)} is not {@link OptLevel#NONE}.
     */
    public RunOptions maxThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("maxThreads(" + threads + "): a program needs at least 1 thread");
        }
        return with(f -> f.maxThreads = threads);
    }

    /**
     * Registers one MBean per node thread ({@code org.fastflowj:type=Node,run=N,node=THREAD}) and per
     * network link of a distributed group ({@code type=Link}) while the run lives, for JConsole, VisualVM or a JMX exporter; they read the counters the run keeps anyway.
     * Off by default: the first use of the platform MBean server costs a few hundred milliseconds, and
     * libraries start many short runs.
     */
    public RunOptions jmx(boolean enabled) {
        return with(f -> f.jmx = enabled);
    }

    /**
     * Serves, while the run lives, a live web page of its graph and counters at {@code http://127.0.0.1:port/}
     * (its data at {@code /api/graph} and {@code /api/stats}) and its metrics in the Prometheus text
     * format at {@code /metrics} (on the loopback address only: the server has no authentication, so reach it
     * from another host through an ssh tunnel; {@code 0} picks a free port, read it with {@link
     * BuildingBlock#uiPort()}).
     *
     * @throws IllegalArgumentException if {@code port} is not 0..65535
     */
    public RunOptions ui(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("ui(" + port + "): a port is 0..65535 (0 picks a free one)");
        }
        return with(f -> f.uiPort = port);
    }

    /**
     * Checkpoints every {@code interval} (and one as the run starts) into {@code store}: see {@link
     * org.fastflowj.core.checkpoint}. Every source must then implement {@link
     * org.fastflowj.core.checkpoint.Checkpointed} (its position is what a restart replays from), and the
     * graph must have no feedback loop and no ordered farm; the run refuses to start otherwise, naming the
     * node. A program in groups keeps one directory per group under a directory {@code store} that every
     * group reaches ({@link org.fastflowj.core.checkpoint.GroupCheckpoints}).
     */
    public RunOptions checkpoints(Duration interval, CheckpointStore store) {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(store, "store");
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("checkpoints(" + interval + "): the interval is at least 1 ms");
        }
        return with(f -> {
            f.checkpointInterval = interval;
            f.checkpointStore = store;
        });
    }

    /** Aligned (exactly once, the default) or unaligned-by-skipping (at least once) checkpoints. */
    public RunOptions checkpointMode(CheckpointMode mode) {
        Objects.requireNonNull(mode, "mode");
        return with(f -> f.checkpointMode = mode);
    }

    /** How often a failed run with checkpoints starts again from its last completed one; none by default. */
    public RunOptions restartStrategy(RestartStrategy strategy) {
        Objects.requireNonNull(strategy, "strategy");
        return with(f -> f.restartStrategy = strategy);
    }

    /**
     * Starts the run from the newest usable checkpoint in the store (a process started again after its
     * run failed) instead of from its nodes' initial state; a store with no checkpoint starts afresh, a
     * store whose checkpoints are all unusable refuses to start, saying why.
     */
    public RunOptions resumeFromCheckpoint(boolean resume) {
        return with(f -> f.resumeFromCheckpoint = resume);
    }

    /**
     * Incremental checkpoints: a node that can ({@link org.fastflowj.core.checkpoint.IncrementalCheckpointed},
     * the stream layer's keyed state) writes its whole state at one checkpoint in {@code n}, and at the
     * others only what changed since its previous one; a restart reads back the whole state and the
     * change sets after it. 1 (the default): every checkpoint holds whole states. The store keeps the
     * checkpoints a retained one builds on, so it holds up to {@code n - 1} more.
     */
    public RunOptions fullCheckpointEvery(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fullCheckpointEvery(" + n + "): at least 1 (every checkpoint whole)");
        }
        return with(f -> f.fullCheckpointEvery = n);
    }

    /** One checkpoint in this many holds a node's whole state; 1: all of them. */
    public int fullCheckpointEvery() {
        return fullCheckpointEvery;
    }

    /** The checkpoint interval, or null without checkpoints. */
    public Duration checkpointInterval() {
        return checkpointInterval;
    }

    /** The checkpoint store, or null without checkpoints. */
    public CheckpointStore checkpointStore() {
        return checkpointStore;
    }

    public CheckpointMode checkpointMode() {
        return checkpointMode;
    }

    public RestartStrategy restartStrategy() {
        return restartStrategy;
    }

    public boolean resumesFromCheckpoint() {
        return resumeFromCheckpoint;
    }

    public boolean jmx() {
        return jmx;
    }

    /** The port asked for with {@link #ui(int)} ({@code 0}: any free one), or -1 for no metrics server. */
    public int uiPort() {
        return uiPort;
    }

    public OptLevel optLevel() {
        return optLevel;
    }

    public int maxThreads() {
        return maxThreads > 0 ? maxThreads : Runtime.getRuntime().availableProcessors();
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public int queueCapacity() {
        return queueCapacity;
    }

    public boolean unboundedQueues() {
        return unboundedQueues;
    }

    /** CPUs to pin node threads to, in order; empty for no pinning or for {@link #autoThreadMapping()}. */
    public List<Integer> cpus() {
        return cpus;
    }

    /** Whether threads are pinned by {@code threadMapping("auto")}, FastFlow's default mapping. */
    public boolean autoThreadMapping() {
        return autoMapping;
    }

    /**
     * Whether {@link #threadMapping} was called (with anything, {@code ""} included): the optimizer then
     * leaves the mapping alone.
     */
    public boolean threadMappingGiven() {
        return mappingGiven;
    }

    @Override
    public String toString() {
        return "RunOptions[waitStrategy=" + waitStrategy + ", queueCapacity=" + queueCapacity + ", unboundedQueues="
                + unboundedQueues + ", cpus=" + (autoMapping ? "auto" : cpus) + ", optimize=" + optLevel
                + ", maxThreads=" + maxThreads()
                + ", jmx=" + jmx + ", ui=" + uiPort
                + (checkpointInterval == null
                        ? ""
                        : ", checkpoints=" + checkpointInterval + " " + checkpointMode + " in "
                                + checkpointStore.describe() + ", restarts=" + restartStrategy)
                + "]";
    }
}
